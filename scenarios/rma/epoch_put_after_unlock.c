/* rma-outside-epoch: a lock/flush update loop whose last store is issued
 * after the MPI_Win_unlock that ended the passive-target epoch.
 * ranks: 2
 * expect: rma-outside-epoch rank 0 line 29
 * twin: epoch_unlock_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  int* cells = corpus_window(4, sizeof(int), &win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int v[4] = {1, 2, 3, 4};
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    for (int i = 0; i < 3; ++i) {
      MPI_Put(&v[i], 1, MPI_INT, 1, i, 1, MPI_INT, win);
      MPI_Win_flush(1, win);
    }
#ifdef CORRECT
    MPI_Put(&v[3], 1, MPI_INT, 1, 3, 1, MPI_INT, win);
    MPI_Win_unlock(1, win);
#else
    MPI_Win_unlock(1, win);
    MPI_Put(&v[3], 1, MPI_INT, 1, 3, 1, MPI_INT, win); // BUG
#endif
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
