/* Per-rank load factors (float) gathered everywhere as MPI_INT: same size,
 * wrong type.
 * ranks: 2
 * expect: buffer-type-mismatch rank 0|1 line 15
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  float load = 0.75f + rank;
  float loads[2];
  MPI_Allgather(&load, 1, MPI_INT, loads, 1, MPI_INT, MPI_COMM_WORLD);
  if (rank == 0) printf("%g %g\n", loads[0], loads[1]);
  MPI_Finalize();
  return 0;
}
