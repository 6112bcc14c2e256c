/* Domain decomposition set-up: the root scatters the initial field and
 * then tells rank 1 how many time steps to run; rank 1 reads the step
 * count before it takes its part of the field. Completes under MPICH
 * (the root of MPI_Scatter does not wait for the others), but relies on
 * MPI_Scatter not synchronizing (MPI-4.0 §6.14). Fixed: the step count is
 * received after the scatter.
 * ranks: 2
 * expect: potential-deadlock rank 0 line 26
 * twin: nosync_scatter_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>

#define CELLS 32

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double field[2 * CELLS], part[CELLS];
  int steps = 0;
  if (rank == 0) {
    for (int i = 0; i < 2 * CELLS; ++i) field[i] = i * 0.5;
    steps = 10;
    MPI_Scatter(field, CELLS, MPI_DOUBLE, part, CELLS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Send(&steps, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
  } else if (rank == 1) {
#ifdef FIXED
    MPI_Scatter(field, CELLS, MPI_DOUBLE, part, CELLS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Recv(&steps, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#else
    MPI_Recv(&steps, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Scatter(field, CELLS, MPI_DOUBLE, part, CELLS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
#endif
  }
  double sum = 0;
  for (int s = 0; s < steps; ++s)
    for (int i = 0; i < CELLS; ++i) sum += part[i];
  printf("rank %d: %g\n", rank, sum);
  MPI_Finalize();
  return 0;
}
