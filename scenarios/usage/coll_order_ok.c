/* Correct twin: the same collectives in the same order on every rank.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, cfg = 0, s[2] = {1, 2}, r[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) cfg = 7;
  MPI_Request req;
  MPI_Ibcast(&cfg, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
  MPI_Alltoall(s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
