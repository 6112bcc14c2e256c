/* A sliding-window datatype (blocks of 4 doubles, stride 2) broadcast into
 * a time series: the stride is shorter than the block, so consecutive
 * windows overlap, which a receiving rank must not use.
 * ranks: 2
 * expect: invalid-argument rank 1 line 26
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { WINDOW = 4, STEP = 2, NWIN = 5 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int my_id;
  MPI_Comm_rank(MPI_COMM_WORLD, &my_id);
  double* series = malloc(64 * sizeof(double));
  if (my_id == 0)
    for (int t = 0; t < 64; ++t) series[t] = t;
  MPI_Datatype windows;
  MPI_Type_vector(NWIN, WINDOW, STEP, MPI_DOUBLE, &windows);
  MPI_Type_commit(&windows);
  /* The root only reads through the datatype (allowed); the other ranks
   * receive through it. */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Bcast(series, 1, windows, 0, MPI_COMM_WORLD);
  if (my_id != 0) printf("series[5] = %g\n", series[5]);
  MPI_Type_free(&windows);
  free(series);
  MPI_Finalize();
  return 0;
}
