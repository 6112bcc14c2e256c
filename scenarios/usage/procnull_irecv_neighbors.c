/* Neighbour table initialised to MPI_PROC_NULL and filled in a loop that
 * skips the last direction: rank 1 posts its receive from "south" with
 * MPI_PROC_NULL and never gets rank 0's message.
 * ranks: 2
 * expect: invalid-argument rank 1 line 37
 * twin: procnull_irecv_neighbors_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>

enum { NORTH, SOUTH, NDIRS };
#ifdef FIXED
#define FILLED NDIRS
#else
#define FILLED (NDIRS - 1)
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int neighbour[NDIRS];
  for (int d = 0; d < NDIRS; ++d) neighbour[d] = MPI_PROC_NULL;
  for (int d = 0; d < FILLED; ++d) {
    const int step = d == NORTH ? 1 : -1;
    const int other = me + step;
    if (other >= 0 && other < ranks) neighbour[d] = other;
  }
  int edge[8], halo[2][8];
  for (int k = 0; k < 8; ++k) edge[k] = me;
  MPI_Request reqs[4];
  int nreq = 0;
  if (me == 0) {
    MPI_Isend(edge, 8, MPI_INT, 1, 40, MPI_COMM_WORLD, &reqs[nreq++]);
  } else {
    MPI_Irecv(halo[SOUTH], 8, MPI_INT, neighbour[SOUTH], 40, MPI_COMM_WORLD, &reqs[nreq++]);
  }
  MPI_Status done[4];
  MPI_Waitall(nreq, reqs, done);
  printf("rank %d done\n", me);
  MPI_Finalize();
  return 0;
}
