/* Both ranks send first, then receive: works only while MPI buffers the
 * small message (eager); a deadlock in zero-buffer mode.
 * ranks: 2
 * mode: zero-buffer
 * expect: deadlock rank 0 line 20
 * twin: zerobuf_ok -DFIXED
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int other = 1 - rank;
  double mine[4] = {rank}, theirs[4];
#ifdef FIXED
  /* The exchange ordered by rank parity: safe without buffering. */
  if (rank % 2 == 1) MPI_Recv(theirs, 4, MPI_DOUBLE, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#endif
  MPI_Send(mine, 4, MPI_DOUBLE, other, 0, MPI_COMM_WORLD);
#ifdef FIXED
  if (rank % 2 == 0)
#endif
  MPI_Recv(theirs, 4, MPI_DOUBLE, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
