/* Global cell count kept in a long and reduced as MPI_INT (a Kripke-style
 * mutation: the datatype is narrower than the C type).
 * ranks: 2
 * expect: buffer-type-mismatch rank 0|1 line 16
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long local_cells = 1000L * (rank + 1);
  long total_cells = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Allreduce(&local_cells, &total_cells, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("cells %ld\n", total_cells);
  MPI_Finalize();
  return 0;
}
