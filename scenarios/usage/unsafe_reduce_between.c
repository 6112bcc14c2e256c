/* A worker sends its result and its timing, then joins the global error
 * reduction; the master receives the result, joins the reduction, and
 * only then receives the timing. The worker's second send must be
 * buffered for the reduction to start.
 * ranks: 2
 * expect: potential-deadlock rank 1 line 27
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int id;
  MPI_Comm_rank(MPI_COMM_WORLD, &id);
  double result = 0.0, seconds = 0.0, err = 1e-3 * (id + 1), max_err = 0.0;
  if (id == 0) {
    MPI_Status st;
    MPI_Recv(&result, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &st);
    MPI_Allreduce(&err, &max_err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Recv(&seconds, 1, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, &st);
    printf("result %g in %g s, max error %g\n", result, seconds, max_err);
  } else if (id == 1) {
    double t0 = MPI_Wtime();
    for (int k = 1; k <= 1000; ++k) result += 1.0 / k;
    seconds = MPI_Wtime() - t0;
    MPI_Send(&result, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    MPI_Send(&seconds, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
    MPI_Allreduce(&err, &max_err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
