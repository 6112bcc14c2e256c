/* rma-type-mismatch: a boundary fetch asks for a full row at the origin but
 * describes only half a row at the target.
 * ranks: 2
 * expect: rma-type-mismatch rank 0|1 line 25
 * twin: type_get_count_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

enum { ROW = 32 };

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  double* grid = corpus_window(4 * ROW, sizeof(double), &win);
  for (int i = 0; i < 4 * ROW; ++i) grid[i] = rank;
  double row[ROW];
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_SHARED, 1 - rank, 0, win);
#ifdef CORRECT
  MPI_Get(row, ROW, MPI_DOUBLE, 1 - rank, ROW, ROW, MPI_DOUBLE, win);
#else
  MPI_Get(row, ROW, MPI_DOUBLE, 1 - rank, ROW, ROW / 2, MPI_DOUBLE, win); // BUG
#endif
  MPI_Win_unlock(1 - rank, win);
  printf("rank %d row[0] %g\n", rank, row[0]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
