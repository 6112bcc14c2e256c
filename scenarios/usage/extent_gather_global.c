/* Timing summary gathered at the root into a table sized for one value per
 * rank, while each rank contributes its four phase timings.
 * ranks: 2
 * expect: buffer-overflow rank 0 line 18
 */
#include <mpi.h>
#include <stdio.h>

#define PHASES 4
double phase_times[PHASES];
double all_times[PHASES];  /* should be PHASES * nranks */

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int p = 0; p < PHASES; ++p) phase_times[p] = 0.25 * p + rank;
  MPI_Gather(phase_times, PHASES, MPI_DOUBLE, all_times, PHASES, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("t0 %g\n", all_times[0]);
  MPI_Finalize();
  return 0;
}
