/* Rank 0 finds a bad input and calls MPI_Abort while the other ranks wait
 * in MPI_Barrier; the launcher then kills them there. The abort is the
 * finding (outcome mpi-abort); MPI_Abort exempts rank 0 from MPI_Finalize,
 * and the other ranks' deaths inside MPI_Barrier are consequences, not
 * invalid arguments.
 * ranks: 3
 * expect: none of missing-finalize invalid-argument collective-missing
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    usleep(200000); /* the others are in the barrier by now */
    fprintf(stderr, "rank 0: bad input, aborting\n");
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
