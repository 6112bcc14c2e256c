/* The reduction root comes from a per-rank variable that differs on rank 1.
 * ranks: 2
 * expect: collective-root-mismatch rank 1 line 13
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, root;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  root = rank == 1 ? 1 : 0;
  double x = 1.0, sum = 0;
  MPI_Reduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
