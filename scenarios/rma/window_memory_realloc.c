/* rma-window-memory-freed: a particle buffer exposed in a window grows with
 * realloc while the window still exposes the old block.
 * ranks: 2
 * expect: rma-window-memory-freed rank 0|1 line 19
 * twin: window_memory_realloc_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  size_t n = 512;
  double* parts = malloc(n * sizeof(double));
  for (size_t i = 0; i < n; ++i) parts[i] = rank;
  MPI_Win win;
  MPI_Win_create(parts, n * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win); // BUG
  MPI_Win_fence(0, win);
  double x = 0;
  MPI_Get(&x, 1, MPI_DOUBLE, 1 - rank, 0, 1, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);
#ifdef CORRECT
  MPI_Win_free(&win);
  parts = realloc(parts, 4 * n * sizeof(double));
#else
  parts = realloc(parts, 4 * n * sizeof(double));
  MPI_Win_free(&win);
#endif
  printf("rank %d got %g\n", rank, x);
  free(parts);
  MPI_Finalize();
  return 0;
}
