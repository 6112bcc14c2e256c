/* rma-conflict (target-side load by another thread): rank 0 puts a halo
 * value into rank 1's window under a lock, then both meet in MPI_Barrier.
 * On rank 1 the main thread calls the barrier while a worker thread, started
 * before it, already reads the halo cell: only the main thread waited for
 * rank 0. Seen without recompiling: under MPI_THREAD_MULTIPLE the window's
 * pages stay protected, the worker's load faults on its own thread and is
 * ordered against the main thread's MPI calls by time.
 * ranks: 2
 * mode: guard-windows
 * expect: rma-conflict rank 1 line 32
 * twin: hybrid_worker_reads_halo_ok -DCORRECT
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#include "corpus.h"

enum { N = 1024 };

static double* halo;
static double seen;
#ifdef CORRECT
static pthread_barrier_t exchanged;
#endif

static void* worker(void* arg) {
  (void)arg;
#ifdef CORRECT
  pthread_barrier_wait(&exchanged); /* after the main thread's MPI_Barrier */
#endif
  seen = halo[0]; // BUG without the barrier
  return NULL;
}

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_MULTIPLE, 0);
  MPI_Win win;
  MPI_Win_allocate(N * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &halo, &win);
  halo[0] = -1;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    double edge = 42;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    MPI_Put(&edge, 1, MPI_DOUBLE, 1, 0, 1, MPI_DOUBLE, win);
    MPI_Win_unlock(1, win);
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
#ifdef CORRECT
    pthread_barrier_init(&exchanged, NULL, 2);
#endif
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    MPI_Barrier(MPI_COMM_WORLD);
#ifdef CORRECT
    pthread_barrier_wait(&exchanged);
#endif
    pthread_join(t, NULL);
    printf("halo %g\n", seen);
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
