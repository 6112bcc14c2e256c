/* Persistent send started in a loop; the last start is never waited for.
 * ranks: 2
 * expect: pending-request rank 0 line 13
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Request req;
  if (rank == 0) {
    MPI_Send_init(&value, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &req);
    for (int it = 0; it < 3; ++it) {
      value = it;
      MPI_Start(&req);
      if (it < 2) MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
  } else if (rank == 1) {
    for (int it = 0; it < 3; ++it) MPI_Recv(&value, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
