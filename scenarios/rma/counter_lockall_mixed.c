/* rma-conflict: a shared work counter on rank 0 under MPI_Win_lock_all.
 * Workers add their finished items with MPI_Accumulate(MPI_SUM), but one
 * worker resets the counter with MPI_Put in the same passive epoch: a Put
 * and an Accumulate on one location conflict (only accumulates of one op
 * may overlap).
 * ranks: 3
 * expect: rma-conflict rank 2 line 26
 * twin: counter_lockall_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  long* counter = corpus_counter(&win);
  MPI_Win_lock_all(0, win);
  long done = rank * 10;
  if (rank == 1) MPI_Accumulate(&done, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
  if (rank == 2) {
#ifdef CORRECT
    MPI_Accumulate(&done, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
#else
    MPI_Put(&done, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win); // BUG
#endif
  }
  MPI_Win_flush_all(win);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("counter = %ld\n", *counter);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
