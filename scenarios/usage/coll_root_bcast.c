/* Each rank believes it is the root of the broadcast.
 * ranks: 2
 * expect: collective-root-mismatch rank 1 line 12
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, v;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  v = rank;
  MPI_Bcast(&v, 1, MPI_INT, rank, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
