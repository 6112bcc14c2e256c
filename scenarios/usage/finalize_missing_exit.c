/* A helper calls exit() after its part of the work, skipping MPI_Finalize.
 * ranks: 2
 * expect: missing-finalize rank 1 line 11
 */
#include <mpi.h>
#include <stdlib.h>

static void worker_done(void) { exit(0); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, v = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    worker_done();
  }
  MPI_Finalize();
  return 0;
}
