/* The root broadcasts ints, the others expect floats (same byte count).
 * ranks: 2
 * expect: collective-type-mismatch rank 1 line 16
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int ivals[4] = {1, 2, 3, 4};
  float fvals[4];
  if (rank == 0)
    MPI_Bcast(ivals, 4, MPI_INT, 0, MPI_COMM_WORLD);
  else
    MPI_Bcast(fvals, 4, MPI_FLOAT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
