/* Correct twin of the procnull_* scenarios: a non-periodic 1-D halo
 * exchange whose boundary ranks talk to MPI_PROC_NULL (from
 * MPI_Cart_shift); every real message is received.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int nprocs;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int dims[1] = {nprocs}, periods[1] = {0};
  MPI_Comm line;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
  int mine, lower, upper;
  MPI_Comm_rank(line, &mine);
  MPI_Cart_shift(line, 0, 1, &lower, &upper);
  double cells[10];
  for (int c = 0; c < 10; ++c) cells[c] = mine;
  MPI_Sendrecv(&cells[8], 1, MPI_DOUBLE, upper, 2, &cells[0], 1, MPI_DOUBLE, lower, 2, line, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&cells[1], 1, MPI_DOUBLE, lower, 3, &cells[9], 1, MPI_DOUBLE, upper, 3, line, MPI_STATUS_IGNORE);
  printf("%d: %g %g\n", mine, cells[0], cells[9]);
  MPI_Comm_free(&line);
  MPI_Finalize();
  return 0;
}
