/* rma-window-memory-freed: a 40-byte flag array exposed in a window is
 * freed before the window (a block below the allocator log's size
 * threshold: window bases are watched whatever their size).
 * ranks: 2
 * expect: rma-window-memory-freed rank 0|1 line 20
 * twin: window_memory_small_free_order_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>
#include <stdlib.h>

enum { N = 10 };

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  int* flags = calloc(N, sizeof(int));
  MPI_Win win;
  MPI_Win_create(flags, N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win); // BUG
  MPI_Win_fence(0, win);
  const int one = 1;
  MPI_Put(&one, 1, MPI_INT, 1 - rank, rank, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
#ifdef CORRECT
  MPI_Win_free(&win);
  free(flags);
#else
  free(flags);
  MPI_Win_free(&win);
#endif
  if (rank == 0) printf("done\n");
  MPI_Finalize();
  return 0;
}
