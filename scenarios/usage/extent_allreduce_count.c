/* Energy reduction: the count says two doubles, the buffers hold one each
 * (a LULESH-style mutation: 16 bytes written into one double, on every rank).
 * ranks: 2
 * expect: buffer-overflow rank 0|1 line 18
 */
#include <mpi.h>
#include <stdio.h>

static double local_energy(int rank) { return 1.5 * (rank + 1); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double history[4] = {0, 0, 0, 0};
  double e = local_energy(rank);
  double total = 0.0;
  MPI_Allreduce(&e, &total, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  history[0] = total;
  if (rank == 0) printf("energy %g\n", history[0]);
  MPI_Finalize();
  return 0;
}
