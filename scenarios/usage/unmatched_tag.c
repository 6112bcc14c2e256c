/* A status message with its own tag that the receiver never asks for.
 * ranks: 2
 * expect: unmatched-send rank 0 line 16
 */
#include <mpi.h>

#define TAG_DATA 10
#define TAG_STATUS 11

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, data[4] = {1, 2, 3, 4}, status_word = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Send(data, 4, MPI_INT, 1, TAG_DATA, MPI_COMM_WORLD);
    MPI_Send(&status_word, 1, MPI_INT, 1, TAG_STATUS, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(data, 4, MPI_INT, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
