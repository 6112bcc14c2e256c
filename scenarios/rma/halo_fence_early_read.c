/* rma-conflict (target-side load): a halo exchange with fences where each
 * rank starts its stencil update before the closing fence, reading the
 * ghost cell its neighbour's MPI_Put writes in the same epoch. Seen without
 * recompiling: the window's pages are protected between MPI calls.
 * ranks: 3
 * mode: guard-windows
 * expect: rma-conflict rank 1 line 35
 * twin: halo_fence_read_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>
#include <stdlib.h>

enum { N = 2048 };  /* 16 KiB of doubles: the window fills whole pages */

int main(int argc, char** argv) {
  int size;
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, &size);
  MPI_Win win;
  double* u = corpus_window(N + 2, sizeof(double), &win);
  double* next = malloc((N + 2) * sizeof(double));
  for (int i = 0; i < N + 2; ++i) u[i] = rank;
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double edge = 0;
  for (int step = 0; step < 2; ++step) {
    MPI_Win_fence(0, win);
    MPI_Put(&u[1], 1, MPI_DOUBLE, left, N + 1, 1, MPI_DOUBLE, win);
    MPI_Put(&u[N], 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, win);
#ifdef CORRECT
    MPI_Win_fence(0, win);
    edge = u[N + 1];
#else
    edge = u[N + 1]; // BUG
    MPI_Win_fence(0, win);
#endif
    next[N] = 0.5 * (u[N - 1] + edge);
  }
  if (rank == 0) printf("edge = %g\n", next[N]);
  free(next);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
