/* Correct twin of the crash_* scenarios: buffers stay allocated until
 * their MPI calls are done and the step count is broadcast by address.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int steps = me == 0 ? 100 : -1;
  MPI_Bcast(&steps, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const int n = 1 << 16;
  double* ghost = malloc((size_t)n * sizeof(double));
  if (me == 0) {
    for (int i = 0; i < n; ++i) ghost[i] = i;
    MPI_Send(ghost, n, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD);
  } else if (me == 1) {
    MPI_Recv(ghost, n, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  long* counts = calloc((size_t)n, sizeof(long));
  long* sums = malloc((size_t)n * sizeof(long));
  counts[me] = steps;
  MPI_Allreduce(counts, sums, n, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf("%ld\n", sums[0] + sums[1]);
  free(sums);
  free(counts);
  free(ghost);
  MPI_Finalize();
  return 0;
}
