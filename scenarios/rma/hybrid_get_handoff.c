/* rma-origin-buffer (another thread reads a pending Get's buffer): rank 0's
 * main thread fetches a block of rank 1's table with MPI_Get under a lock and
 * hands it to a worker thread by a flag it sets right after the MPI_Get,
 * before MPI_Win_unlock completed the operation: the worker may sum data not
 * there yet. Seen without recompiling: the block's pages are protected from
 * the Get to its completion, and the worker's load faults on its own thread.
 * ranks: 2
 * mode: guard-windows
 * expect: rma-origin-buffer rank 0 line 31
 * twin: hybrid_get_handoff_ok -DCORRECT
 */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "corpus.h"
#include <stdlib.h>

enum { N = 2048 };

static int* block;
static atomic_int ready;
static long sum;

static void* worker(void* arg) {
  (void)arg;
  while (atomic_load(&ready) == 0) {
  }
  long s = 0;
  for (int i = 0; i < N; i += 512) s += block[i];
  sum = s;
  return NULL;
}

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_MULTIPLE, 0);
  int* table;
  MPI_Win win;
  MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &table, &win);
  for (int i = 0; i < N; ++i) table[i] = rank * N + i;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    block = malloc(N * sizeof(int));
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    MPI_Get(block, N, MPI_INT, 1, 0, N, MPI_INT, win);
#ifdef CORRECT
    MPI_Win_unlock(1, win);
    atomic_store(&ready, 1);
#else
    atomic_store(&ready, 1); // BUG: before the unlock
    MPI_Win_unlock(1, win);
#endif
    pthread_join(t, NULL);
    printf("sum %ld\n", sum);
    free(block);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
