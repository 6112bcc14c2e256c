/* Sender packs ints, receiver reads floats of the same size.
 * ranks: 2
 * expect: type-mismatch rank 1 line 16
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    int counts[3] = {4, 5, 6};
    MPI_Send(counts, 3, MPI_INT, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    float weights[3];
    MPI_Recv(weights, 3, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
