/* Correct twin: MPI_IN_PLACE and Sendrecv_replace.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double acc[4] = {1, 2, 3, 4};
  MPI_Allreduce(MPI_IN_PLACE, acc, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  int edge[16] = {rank}, peer = (rank + 1) % size;
  MPI_Sendrecv_replace(edge, 16, MPI_INT, peer, 0, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int table[2] = {rank, rank};
  MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, table, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
