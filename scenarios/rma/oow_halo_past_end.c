/* rma-out-of-window: a halo exchange sizes its window for the interior and
 * one ghost cell, but puts into the right ghost one past the end.
 * ranks: 2
 * expect: rma-out-of-window rank 0|1 line 27
 * twin: oow_halo_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

enum { N = 64 };

int main(int argc, char** argv) {
  int size;
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, &size);
  double* u;
  MPI_Win win;
#ifdef CORRECT
  MPI_Win_allocate((N + 2) * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &u, &win);
#else
  MPI_Win_allocate((N + 1) * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &u, &win);
#endif
  for (int i = 0; i <= N; ++i) u[i] = rank;
  const int left = (rank + size - 1) % size;
  MPI_Win_fence(0, win);
  MPI_Put(&u[1], 1, MPI_DOUBLE, left, N + 1, 1, MPI_DOUBLE, win); // BUG
  MPI_Win_fence(0, win);
  if (rank == 0) printf("done\n");
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
