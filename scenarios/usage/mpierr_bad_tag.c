/* A negative tag from an uninitialized-looking offset.
 * ranks: 2
 * expect: mpi-error rank 0 line 11
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, v = 0, tag_base = -10;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) MPI_Send(&v, 1, MPI_INT, 1, tag_base + 3, MPI_COMM_WORLD);
  if (rank == 1) MPI_Recv(&v, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
