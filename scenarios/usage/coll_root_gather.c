/* Gather to the "last" rank, computed differently on the ranks.
 * ranks: 3
 * expect: collective-root-mismatch rank 2 line 14
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int last = rank == size - 1 ? rank - 1 : size - 1;
  int mine = rank, all[8];
  MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, last, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
