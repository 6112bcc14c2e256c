/* A solver splits a row communicator for every panel and never frees it:
 * the number of live communicators grows with the run (MPICH runs out of
 * context ids after a few thousand).
 * ranks: 2
 * expect: leaked-handle rank 0 line 12 severity warning
 */
#include <mpi.h>

static double panel_sum(int panel, int rank) {
  MPI_Comm row;
  double mine = panel + rank, sum = 0;
  MPI_Comm_split(MPI_COMM_WORLD, panel % 2, rank, &row);
  MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, row);
  return sum; /* row is never freed */
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double total = 0;
  for (int panel = 0; panel < 8; ++panel) total += panel_sum(panel, rank);
  (void)total;
  MPI_Finalize();
  return 0;
}
