/* rma-unmatched-sync: a solver's convergence test breaks out of the
 * exchange loop on one rank one iteration before the others, so the ranks
 * call MPI_Win_fence a different number of times.
 * ranks: 2
 * expect: rma-unmatched-sync rank 1 line 24
 * twin: sync_fence_count_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  double* ghost = corpus_window(1, sizeof(double), &win);
  double residual = 1.0;
#ifdef CORRECT
  const int last = 3;
#else
  const int last = rank == 0 ? 2 : 3;  /* local convergence test */
#endif
  for (int it = 0; it <= last; ++it) {
    MPI_Win_fence(0, win); // BUG
    residual *= 0.5;
  }
  printf("rank %d residual %g\n", rank, residual);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
