/* Allreduce count taken from a per-rank length that differs on rank 1.
 * ranks: 2
 * expect: collective-type-mismatch rank 1 line 13
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double in[4] = {1, 2, 3, 4}, out[4];
  int n = rank == 1 ? 3 : 4;
  MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
