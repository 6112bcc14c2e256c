/* Correct twin: the exchange ordered by rank parity (safe without buffering).
 * ranks: 2
 * mode: zero-buffer
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int other = 1 - rank;
  double mine[4] = {rank}, theirs[4];
  if (rank % 2 == 0) {
    MPI_Send(mine, 4, MPI_DOUBLE, other, 0, MPI_COMM_WORLD);
    MPI_Recv(theirs, 4, MPI_DOUBLE, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(theirs, 4, MPI_DOUBLE, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(mine, 4, MPI_DOUBLE, other, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
