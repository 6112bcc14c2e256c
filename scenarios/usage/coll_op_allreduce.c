/* One rank takes the maximum where the others sum.
 * ranks: 2
 * expect: collective-op-mismatch rank 1 line 13
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double e = rank + 1.0, r = 0;
  MPI_Op op = rank == 0 ? MPI_SUM : MPI_MAX;
  MPI_Allreduce(&e, &r, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
