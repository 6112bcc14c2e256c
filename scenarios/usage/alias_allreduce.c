/* In-place reduction written with the same buffer twice instead of MPI_IN_PLACE.
 * ranks: 2
 * expect: aliased-buffers rank 0|1 line 10
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  double acc[4] = {1, 2, 3, 4};
  MPI_Allreduce(acc, acc, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
