/* rma-free-in-epoch: an early return path frees the window while the
 * MPI_Win_lock_all epoch it opened is still open.
 * ranks: 2
 * expect: rma-free-in-epoch rank 0|1 line 24
 * twin: free_after_unlock_all_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  long* hits = corpus_counter(&win);
  MPI_Win_lock_all(0, win);
  const long one = 1;
  MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
#ifdef CORRECT
  MPI_Win_unlock_all(win);
#else
  MPI_Win_flush_all(win);
#endif
  MPI_Win_free(&win); // BUG
  MPI_Finalize();
  return 0;
}
