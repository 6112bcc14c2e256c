/* leaked-window: a solver re-creates its window for a resized grid into
 * the same handle; only the second window is freed.
 * ranks: 2
 * expect: leaked-window rank 0|1 line 16
 * twin: leak_window_overwritten_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  double *grid, *bigger;
  MPI_Win win;
  MPI_Win_allocate(64 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &grid, &win); // BUG
  grid[0] = rank;
#ifdef CORRECT
  MPI_Win_free(&win);
#endif
  MPI_Win_allocate(128 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &bigger, &win);
  bigger[0] = rank;
  MPI_Win_free(&win);
  if (rank == 0) printf("done\n");
  MPI_Finalize();
  return 0;
}
