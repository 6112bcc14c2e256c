/* Receives from both neighbours posted into the same buffer.
 * ranks: 3
 * expect: overlapping-buffers rank 1 line 16
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double ghost[4] = {0}, mine[4] = {rank};
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Request r[4];
  MPI_Irecv(ghost, 4, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(ghost, 4, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &r[1]);
  MPI_Isend(mine, 4, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &r[2]);
  MPI_Isend(mine, 4, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &r[3]);
  MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  MPI_Finalize();
  return 0;
}
