/* A solver rank whose convergence test can never succeed (the residual is
 * compared with the wrong sign), so it never reaches its MPI_Send; rank 0
 * waits in MPI_Recv for the result — a hang with one rank outside MPI, not
 * a deadlock cycle.
 * ranks: 2
 * expect: waits-for-rank-outside-mpi rank 0 line 36
 * twin: outside_ok -DFIXED
 */
#include <mpi.h>

#include "../spine/common_args.h"

static double solve(double x) {
  double residual = 1.0;
  for (;;) {
    x = 0.5 * (x + 2.0 / x);
    residual = x * x - 2.0;
    if (residual < 0) residual = -residual;
#ifdef FIXED
    if (residual < 1e-12) break;
#else
    if (-residual > 1e-12) break; /* sign error: never true */
#endif
  }
  return x;
}

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  double root = 0.0;
  if (rank == 1) {
    root = solve(1.0);
    MPI_Send(&root, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Recv(&root, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
