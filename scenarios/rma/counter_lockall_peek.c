/* rma-conflict (target-side load): workers add to a progress counter on
 * rank 0 with MPI_Accumulate under MPI_Win_lock_all; rank 0 polls the
 * counter with a plain load instead of an atomic read (MPI_Fetch_and_op
 * with MPI_NO_OP) or a lock of its own window, racing with the adds.
 * ranks: 3
 * mode: guard-windows
 * expect: rma-conflict rank 0 line 31
 * twin: counter_lockall_peek_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  long* counter = corpus_counter(&win);
  MPI_Win_lock_all(0, win);
  long seen = 0;
  if (rank != 0) {
    const long one = 1;
    MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
    MPI_Win_flush(0, win);
  } else {
#ifdef CORRECT
    const long none = 0;
    MPI_Fetch_and_op(&none, &seen, MPI_LONG, 0, 0, MPI_NO_OP, win);
    MPI_Win_flush(0, win);
#else
    seen = *counter; // BUG
#endif
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("seen %ld of %ld\n", seen, *counter);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
