/* rma-unmatched-sync: a passive-target lock opened inside a fence epoch
 * (between two fences on the window), mixing active and passive target
 * synchronization.
 * ranks: 2
 * expect: rma-unmatched-sync rank 0 line 25
 * twin: sync_lock_after_fences_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  int* cell = corpus_window(1, sizeof(int), &win);
  int v = 5;
#ifdef CORRECT
  MPI_Win_fence(0, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
#else
  MPI_Win_fence(0, win);
#endif
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win); // BUG
    MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Win_unlock(1, win);
  }
#ifndef CORRECT
  MPI_Win_fence(0, win);
#endif
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
