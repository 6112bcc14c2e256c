/* Correct twin: every rank finalizes, also on the early-out path.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, input = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) input = -1;
  MPI_Bcast(&input, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (input < 0) {
    MPI_Finalize();
    return 0;
  }
  MPI_Finalize();
  return 0;
}
