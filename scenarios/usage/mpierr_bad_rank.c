/* Neighbour rank computed without wrap-around: the last rank sends to `size`.
 * ranks: 2
 * expect: mpi-error rank 1 line 13
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, v = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = rank + 1;
  if (rank == size - 1) MPI_Send(&v, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
  if (rank == 0 && size > 1) MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
