/* rma-origin-buffer: a rank fetches a remote block with MPI_Get under a
 * lock and sums it before MPI_Win_unlock (or a flush) completed the Get:
 * the buffer may not hold the data yet. Seen without recompiling: the
 * result buffer's pages are protected until the completion.
 * ranks: 2
 * mode: guard-windows
 * expect: rma-origin-buffer rank 0 line 30
 * twin: lock_get_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>
#include <stdlib.h>

enum { N = 1024 };

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  int* table = corpus_table(N, rank, &win);
  long sum = 0;
  if (rank == 0) {
    int* block = malloc(N * sizeof(int));
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    MPI_Get(block, N, MPI_INT, 1, 0, N, MPI_INT, win);
#ifdef CORRECT
    MPI_Win_flush(1, win);
#endif
    for (int i = 0; i < N; ++i) sum += block[i]; // BUG
    MPI_Win_unlock(1, win);
    free(block);
    printf("sum %ld\n", sum);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
