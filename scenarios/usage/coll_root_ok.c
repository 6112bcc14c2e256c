/* Correct twin: one root for all.
 * ranks: 3
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int mine = rank, all[8], v = 3;
  MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, size - 1, MPI_COMM_WORLD);
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  double x = 1.0, sum = 0;
  MPI_Reduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
