/* A collector that returns early: rank 1 validates its input, finds it
 * empty and finalizes without receiving; rank 0 blocks in MPI_Ssend of its
 * result to a rank that already called MPI_Finalize.
 * ranks: 2
 * expect: waits-for-finalized rank 0 line 27
 */
#include <mpi.h>

#include "../spine/common_args.h"

static int collect(int n) {
  if (n == 0) return -1; /* nothing to collect: leaves without the receive */
  double r = 0.0;
  MPI_Recv(&r, 1, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return 0;
}

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  if (rank == 1) {
    int n = 0;
    (void)collect(n);
  } else if (rank == 0) {
    double result = 0.0;
    for (int i = 1; i <= 10; ++i) result += 1.0 / i;
    MPI_Ssend(&result, 1, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
