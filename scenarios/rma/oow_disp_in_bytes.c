/* rma-out-of-window: a lookup computes the target displacement in bytes
 * although the window's displacement unit is sizeof(double).
 * ranks: 2
 * expect: rma-out-of-window rank 0|1 line 28
 * twin: oow_disp_in_elements_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

enum { N = 100 };

int main(int argc, char** argv) {
  const int index = 60;  /* the entry this rank looks up in its neighbour's table */
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  double* table = corpus_window(N, sizeof(double), &win);
  for (int i = 0; i < N; ++i) table[i] = rank * N + i;
  MPI_Barrier(MPI_COMM_WORLD);
#ifdef CORRECT
  const MPI_Aint disp = index;
#else
  const MPI_Aint disp = index * sizeof(double);
#endif
  double v = 0;
  MPI_Win_lock(MPI_LOCK_SHARED, 1 - rank, 0, win);
  MPI_Get(&v, 1, MPI_DOUBLE, 1 - rank, disp, 1, MPI_DOUBLE, win); // BUG
  MPI_Win_unlock(1 - rank, win);
  printf("rank %d read %g\n", rank, v);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
