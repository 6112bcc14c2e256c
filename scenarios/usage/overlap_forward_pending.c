/* Pipeline along a ring: each rank forwards the block it receives, but posts
 * the forwarding send from the receive buffer before the receive completed.
 * ranks: 3
 * expect: overlapping-buffers rank 0|1|2 line 17
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double block[4] = {rank, rank, rank, rank};
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Request r[2];
  MPI_Irecv(block, 4, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(block, 4, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Finalize();
  return 0;
}
