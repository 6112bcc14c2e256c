/* rma-outside-epoch: the first halo exchange is issued right after the
 * window is created, before the MPI_Win_fence that opens the first epoch.
 * ranks: 2
 * expect: rma-outside-epoch rank 0|1 line 20
 * twin: epoch_fence_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  int* ghost = corpus_window(1, sizeof(int), &win);
  int edge = rank + 1;
#ifdef CORRECT
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
#endif
  MPI_Put(&edge, 1, MPI_INT, 1 - rank, 0, 1, MPI_INT, win); // BUG
  MPI_Win_fence(0, win);
  printf("rank %d ghost %d\n", rank, *ghost);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
