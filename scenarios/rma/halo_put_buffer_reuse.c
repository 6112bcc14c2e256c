/* rma-origin-buffer: a halo exchange packs its edge into a send buffer,
 * puts it, and packs the next field into the same buffer before the fence
 * that completes the Put (MPI may still read it).
 * ranks: 2
 * expect: rma-origin-buffer rank 0|1 line 24
 * twin: halo_put_buffer_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

enum { N = 8 };

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  double* ghost = corpus_window(2 * N, sizeof(double), &win);
  double pressure[N], velocity[N], pack[N];
  for (int i = 0; i < N; ++i) pressure[i] = rank + i, velocity[i] = -i;
  const int peer = 1 - rank;
  MPI_Win_fence(0, win);
  for (int i = 0; i < N; ++i) pack[i] = pressure[i];
  MPI_Put(pack, N, MPI_DOUBLE, peer, 0, N, MPI_DOUBLE, win); // BUG
#ifdef CORRECT
  MPI_Win_fence(0, win);
#endif
  for (int i = 0; i < N; ++i) pack[i] = velocity[i];
  MPI_Put(pack, N, MPI_DOUBLE, peer, N, N, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);
#ifdef CORRECT
  MPI_Win_fence(0, win);
#endif
  printf("rank %d ghost %g %g\n", rank, ghost[0], ghost[N]);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
