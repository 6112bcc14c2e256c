/* Energy bookkeeping in a manager/worker code: each worker adds its energy
 * into the manager's total with MPI_Reduce and then reports its step count;
 * the manager (rank 0) reads the step count first and joins the reduction
 * afterwards. MPICH lets a non-root leave MPI_Reduce once its contribution
 * is sent, so the run completes, but with a synchronizing MPI_Reduce both
 * wait forever (MPI-4.0 §6.14: a portable program must not depend on
 * whether a collective synchronizes). Fixed: the manager reduces first.
 * ranks: 2
 * expect: potential-deadlock rank 1 line 33
 * twin: nosync_reduce_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double energy = 0.5 * (rank + 1), total = 0;
  int steps = 0;
  if (rank == 0) {
#ifdef FIXED
    MPI_Reduce(&energy, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Recv(&steps, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#else
    MPI_Recv(&steps, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Reduce(&energy, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
#endif
    printf("total energy %g after %d steps\n", total, steps);
  } else if (rank == 1) {
    steps = 250;
    for (int s = 0; s < steps; ++s) energy *= 0.999;
    MPI_Reduce(&energy, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Send(&steps, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
