/* Correct twin: matching signatures, a shorter message into a longer
 * receive, and a derived type against its primitives.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Datatype two_ints;
  MPI_Type_contiguous(2, MPI_INT, &two_ints);
  MPI_Type_commit(&two_ints);
  int buf[8] = {0};
  if (rank == 0) {
    MPI_Send(buf, 3, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Send(buf, 2, two_ints, 1, 1, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(buf, 8, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(buf, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Type_free(&two_ints);
  MPI_Finalize();
  return 0;
}
