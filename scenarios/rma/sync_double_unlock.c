/* rma-unmatched-sync: an error path unlocks the target a second time after
 * the normal path already did.
 * ranks: 2
 * expect: rma-unmatched-sync rank 0 line 27
 * twin: sync_unlock_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

static int update(MPI_Win win, int target, int value) {
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win);
  MPI_Accumulate(&value, 1, MPI_INT, target, 0, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_unlock(target, win);
  return value < 0;  /* "failed" */
}

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  int* total = corpus_window(1, sizeof(int), &win);
  *total = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0 && update(win, 1, -3)) {
#ifndef CORRECT
    MPI_Win_unlock(1, win); // BUG
#endif
    fprintf(stderr, "update failed\n");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
