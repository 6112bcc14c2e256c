/* The step count is broadcast by value instead of by address (the cast
 * silences the compiler): MPI reads and writes address 100 or 10, and
 * the ranks die inside MPI_Bcast.
 * ranks: 2
 * expect: invalid-argument rank 0|1 line 25
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

static int parse_steps(int argc, char** argv) {
  (void)argv;
  return argc > 1 ? 50 : 100;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int nsteps = 10;
  if (rank == 0) nsteps = parse_steps(argc, argv);
  double t0 = MPI_Wtime();
  void* what = (void*)(intptr_t)nsteps;
  MPI_Bcast(what, 1, MPI_INT, 0, MPI_COMM_WORLD);
  printf("rank %d of %d: %d steps after %g s\n", rank, size, nsteps, MPI_Wtime() - t0);
  MPI_Finalize();
  return 0;
}
