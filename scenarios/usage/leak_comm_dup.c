/* A library duplicates the world communicator for its own traffic and never frees it.
 * ranks: 2
 * expect: leaked-handle rank 0 line 9 severity info
 */
#include <mpi.h>

static MPI_Comm lib_comm;

static void lib_init(void) { MPI_Comm_dup(MPI_COMM_WORLD, &lib_comm); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  lib_init();
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, lib_comm);
  MPI_Finalize();
  return 0;
}
