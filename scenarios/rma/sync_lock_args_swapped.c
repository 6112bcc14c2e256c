/* rma-sync-misuse: a counter update passes MPI_Win_lock's assert where the
 * lock type belongs (lock type 0, assert MPI_LOCK_EXCLUSIVE).
 * ranks: 2
 * expect: rma-sync-misuse rank 0|1 line 23
 * twin: sync_lock_args_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  long* counter;
  MPI_Win win;
  MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &win);
  *counter = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const long one = 1;
#ifdef CORRECT
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
#else
  MPI_Win_lock(0, 0, MPI_LOCK_EXCLUSIVE, win); // BUG
#endif
  MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
  MPI_Win_unlock(0, win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("counter %ld\n", *counter);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
