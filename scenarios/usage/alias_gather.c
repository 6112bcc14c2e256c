/* Allgather into the array that also holds this rank's contribution.
 * ranks: 2
 * expect: aliased-buffers rank 0|1 line 12
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int table[2] = {rank, rank};
  MPI_Allgather(table, 1, MPI_INT, table, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
