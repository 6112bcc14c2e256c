/* The receive is one element short of the message.
 * ranks: 2
 * expect: mpi-error rank 1 line 13
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, n = 5;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int data[8] = {0};
  if (rank == 0) MPI_Send(data, n, MPI_INT, 1, 0, MPI_COMM_WORLD);
  if (rank == 1) MPI_Recv(data, n - 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
