/* Nonblocking broadcast of parameters, never completed.
 * ranks: 2
 * expect: pending-request rank 1 line 14
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double params[4] = {0};
  if (rank == 0) params[0] = 1.5;
  MPI_Request req;
  MPI_Ibcast(params, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req);
  double local = params[0] * 2;
  (void)local;
  MPI_Finalize();
  return 0;
}
