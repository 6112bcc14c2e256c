/* rma-conflict: a 1-D halo exchange with MPI_Put and fences. Every rank
 * puts its edge cells into its neighbours' ghost cells; the right-going put
 * uses the wrong displacement (0 instead of n + 1), so it lands on the same
 * ghost cell as the left neighbour's left-going put of the same epoch.
 * ranks: 3
 * expect: rma-conflict rank 1 line 29
 * twin: halo_fence_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

enum { N = 16 };

int main(int argc, char** argv) {
  int size;
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, &size);
  MPI_Win win;
  double* u = corpus_window(N + 2, sizeof(double), &win);  /* u[0] and u[N+1] are ghost cells */
  for (int i = 0; i < N + 2; ++i) u[i] = rank;
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int step = 0; step < 3; ++step) {
    MPI_Win_fence(0, win);
    MPI_Put(&u[1], 1, MPI_DOUBLE, left, N + 1, 1, MPI_DOUBLE, win);
#ifdef CORRECT
    MPI_Put(&u[N], 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, win);
#else
    MPI_Put(&u[N], 1, MPI_DOUBLE, right, N + 1, 1, MPI_DOUBLE, win); // BUG
#endif
    MPI_Win_fence(0, win);
    for (int i = 1; i <= N; ++i) u[i] = 0.5 * (u[i - 1] + u[i + 1]);
  }
  if (rank == 0) printf("u[1] = %g\n", u[1]);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
