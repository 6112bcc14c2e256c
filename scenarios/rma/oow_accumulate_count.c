/* rma-out-of-window: a histogram reduction accumulates its whole local
 * histogram, one bin longer than the bins the target exposes.
 * ranks: 2
 * expect: rma-out-of-window rank 0|1 line 27
 * twin: oow_accumulate_count_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

enum { BINS = 16 };

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  long* hist = corpus_window(BINS, sizeof(long), &win);
  for (int i = 0; i < BINS; ++i) hist[i] = 0;
  long local[BINS + 1];
  for (int i = 0; i <= BINS; ++i) local[i] = i + rank;
#ifdef CORRECT
  const int n = BINS;
#else
  const int n = BINS + 1;
#endif
  MPI_Win_fence(0, win);
  MPI_Accumulate(local, n, MPI_LONG, 0, 0, n, MPI_LONG, MPI_SUM, win); // BUG
  MPI_Win_fence(0, win);
  if (rank == 0) printf("bin 3: %ld\n", hist[3]);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
