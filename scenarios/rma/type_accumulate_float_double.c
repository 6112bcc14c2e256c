/* rma-type-mismatch: an energy reduction accumulates single-precision
 * partial sums into a double-precision total (2 floats as 1 double).
 * ranks: 2
 * expect: rma-type-mismatch rank 0|1 line 24
 * twin: type_accumulate_doubles_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  double* total;
  MPI_Win win;
  MPI_Win_allocate(sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &total, &win);
  *total = 0;
  MPI_Win_fence(0, win);
#ifdef CORRECT
  const double part = 1.5 + rank;
  MPI_Accumulate(&part, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, MPI_SUM, win);
#else
  const float part[2] = {1.5f + rank, 0};
  MPI_Accumulate(part, 2, MPI_FLOAT, 0, 0, 1, MPI_DOUBLE, MPI_SUM, win); // BUG
#endif
  MPI_Win_fence(0, win);
  if (rank == 0) printf("total %g\n", *total);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
