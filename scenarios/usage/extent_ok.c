/* Correct twin of the extent checks: counts that fit their heap block,
 * global and local array, including a send from the middle of an array,
 * an in-place reduction and a gather table sized per rank.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>
#include <stdlib.h>

#define PHASES 4
double phase_times[PHASES];
double all_times[PHASES * 2];

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, n = 32;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double* field = malloc(n * sizeof(double));
  double ghost[8];
  for (int i = 0; i < n; ++i) field[i] = rank + i;
  if (rank == 0) MPI_Send(field + n - 8, 8, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
  else MPI_Recv(ghost, 8, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double e = rank, total = 0;
  MPI_Allreduce(&e, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, field, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Gather(phase_times, PHASES, MPI_DOUBLE, all_times, PHASES, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int counts[2] = {rank, rank};
  MPI_Bcast(counts + 1, 1, MPI_INT, 0, MPI_COMM_WORLD);
  free(field);
  MPI_Finalize();
  return 0;
}
