/* Nonblocking broadcast and an all-to-all issued in opposite orders.
 * ranks: 2
 * expect: collective-order-mismatch rank 1 line 16
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, b = 0, s[2] = {1, 2}, r[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Request req;
  if (rank == 0) {
    MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
    MPI_Alltoall(s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD);
  } else {
    MPI_Alltoall(s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
