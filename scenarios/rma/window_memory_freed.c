/* rma-window-memory-freed: a cleanup routine frees the array a window
 * exposes before the window itself is freed.
 * ranks: 2
 * expect: rma-window-memory-freed rank 0|1 line 20
 * twin: window_memory_free_order_ok -DCORRECT
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 1024 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double* field = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i) field[i] = rank;
  MPI_Win win;
  MPI_Win_create(field, N * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win); // BUG
  MPI_Win_fence(0, win);
  double x = -1;
  MPI_Get(&x, 1, MPI_DOUBLE, 1 - rank, 0, 1, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);
  printf("rank %d got %g\n", rank, x);
#ifdef CORRECT
  MPI_Win_free(&win);
  free(field);
#else
  free(field);
  MPI_Win_free(&win);
#endif
  MPI_Finalize();
  return 0;
}
