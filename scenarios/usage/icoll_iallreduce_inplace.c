/* Convergence check overlapped with the next sweep: the residual norms are
 * summed in place with MPI_Iallreduce, and the sweep writes the new local
 * residual into the same array before the reduction completed (MPI-4.0
 * §6.12). The result then mixes old and new values (or the new one is
 * lost). Fixed: a separate array for the next sweep's residuals.
 * ranks: 2
 * expect: receive-buffer-written rank 0|1 line 32
 * twin: icoll_iallreduce_inplace_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>

#define N 1024

static double u[N];

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < N; ++i) u[i] = (i + rank) % 13;
  double norms[2] = {0, 0}, next[2] = {0, 0};
  for (int i = 0; i < N; ++i) norms[0] += u[i] * u[i];
  norms[1] = N;
  for (int iter = 0; iter < 3; ++iter) {
    MPI_Request req;
#ifdef FIXED
    double* out = next;
#else
    double* out = norms;
#endif
    MPI_Iallreduce(MPI_IN_PLACE, norms, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    out[0] = 0;
    for (int i = 1; i < N - 1; ++i) {
      u[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
      out[0] += u[i] * u[i];
    }
    out[1] = N;
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == 0) printf("iter %d: mean square %g\n", iter, norms[0] / norms[1]);
    norms[0] = out[0];
    norms[1] = out[1];
  }
  MPI_Finalize();
  return 0;
}
