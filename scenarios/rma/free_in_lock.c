/* rma-free-in-epoch: a ring update puts into the right neighbour's slot
 * under a lock and flushes, but the cleanup frees the window without
 * MPI_Win_unlock: the lock epoch is still open.
 * ranks: 2
 * expect: rma-free-in-epoch rank 0|1 line 30
 * twin: free_in_lock_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  int size;
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, &size);
  double* slot;
  MPI_Win win;
  MPI_Win_allocate(sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &slot, &win);
  *slot = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const int right = (rank + 1) % size;
  const double mine = rank + 0.5;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
  MPI_Put(&mine, 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, win);
  MPI_Win_flush(right, win);
#ifdef CORRECT
  MPI_Win_unlock(right, win);
#endif
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win); // BUG
  MPI_Finalize();
  return 0;
}
