/* A worker leaves early on a bad input without finalizing.
 * ranks: 2
 * expect: missing-finalize rank 1 line 10
 * twin: finalize_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, input = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) input = -1;
  MPI_Bcast(&input, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (input < 0 && rank == 1) {
    fprintf(stderr, "rank %d: bad input, leaving\n", rank);
#ifdef FIXED
    MPI_Finalize();  /* every rank finalizes, also on the early-out path */
#endif
    return 0;
  }
  MPI_Finalize();
  return 0;
}
