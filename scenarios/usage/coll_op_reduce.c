/* Residual norm: root uses MPI_MAX, workers MPI_SUM.
 * ranks: 3
 * expect: collective-op-mismatch rank 1 line 15
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double res = 0.5 * rank, norm = 0;
  if (rank == 0)
    MPI_Reduce(&res, &norm, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  else
    MPI_Reduce(&res, &norm, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
