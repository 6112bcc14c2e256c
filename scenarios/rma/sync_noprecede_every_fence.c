/* rma-sync-misuse: a time loop of halo puts asserts MPI_MODE_NOPRECEDE on
 * every opening fence, also on those that complete the previous step's puts.
 * ranks: 2
 * expect: rma-sync-misuse rank 0|1 line 25
 * twin: sync_noprecede_first_fence_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

enum { N = 32 };

int main(int argc, char** argv) {
  int size;
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, &size);
  const int right = (rank + 1) % size;
  MPI_Win win;
  double* u = corpus_window(N + 2, sizeof(double), &win);
  for (int i = 0; i < N + 2; ++i) u[i] = rank + 0.5 * i;
  for (int step = 0; step < 3; ++step) {
#ifdef CORRECT
    MPI_Win_fence(step == 0 ? MPI_MODE_NOPRECEDE : 0, win);
#else
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win); // BUG
#endif
    MPI_Put(&u[N], 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, win);
  }
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  if (rank == 0) printf("ghost %g\n", u[0]);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
