/* leaked-window: a helper creates a scratch window for each call and never
 * frees it.
 * ranks: 2
 * expect: leaked-window rank 0|1 line 13
 * twin: leak_window_ok -DCORRECT
 */
#include <mpi.h>
#include <stdio.h>

static double exchange(double x) {
  double* slot;
  MPI_Win win;
  MPI_Win_allocate(sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &slot, &win); // BUG
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_fence(0, win);
  MPI_Put(&x, 1, MPI_DOUBLE, 1 - rank, 0, 1, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);
  const double got = *slot;
#ifdef CORRECT
  MPI_Win_free(&win);
#endif
  return got;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  printf("%g\n", exchange(1.0) + exchange(2.0));
  MPI_Finalize();
  return 0;
}
