/* Swap with neighbours through one buffer with MPI_Sendrecv (needs _replace).
 * ranks: 2
 * expect: aliased-buffers rank 0|1 line 14
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int edge[16] = {rank};
  int peer = (rank + 1) % size;
  MPI_Sendrecv(edge, 16, MPI_INT, peer, 0, edge, 16, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
