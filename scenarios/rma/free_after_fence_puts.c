/* rma-free-in-epoch: a halo exchange with fences whose last iteration's
 * puts are never completed: the window is freed without the closing fence.
 * ranks: 2
 * expect: rma-free-in-epoch rank 0|1 line 30
 * twin: free_after_closing_fence_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

enum { N = 64, STEPS = 3 };

int main(int argc, char** argv) {
  int size;
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, &size);
  MPI_Win win;
  double* u = corpus_window(N + 2, sizeof(double), &win);
  for (int i = 0; i < N + 2; ++i) u[i] = rank;
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Win_fence(0, win);
  for (int step = 0; step < STEPS; ++step) {
    if (step > 0) MPI_Win_fence(0, win);
    MPI_Put(&u[1], 1, MPI_DOUBLE, left, N + 1, 1, MPI_DOUBLE, win);
    MPI_Put(&u[N], 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, win);
  }
#ifdef CORRECT
  MPI_Win_fence(0, win);
#endif
  MPI_Win_free(&win); // BUG
  MPI_Finalize();
  return 0;
}
