/* Workers contribute a long each, the root gathers MPI_INT per rank.
 * ranks: 2
 * expect: collective-type-mismatch rank 1 line 15
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int ints[4] = {0}, all[8];
  if (rank == 0)
    MPI_Gather(ints, 2, MPI_INT, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
  else
    MPI_Gather(ints, 1, MPI_LONG, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
