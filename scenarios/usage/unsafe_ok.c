/* Correct twin of the unsafe_* scenarios: the exchange uses
 * MPI_Sendrecv, the protocol receives in the order it sends, and the
 * nonblocking receive is posted before the blocking send; all complete
 * with synchronous sends too.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  const int other = 1 - r;
  double edge = r, ghost = -1.0;
  MPI_Sendrecv(&edge, 1, MPI_DOUBLE, other, 0, &ghost, 1, MPI_DOUBLE, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int meta[2] = {r, 7}, data[8] = {0};
  if (r == 0) {
    MPI_Send(meta, 2, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Send(data, 8, MPI_INT, 1, 2, MPI_COMM_WORLD);
  } else {
    MPI_Recv(meta, 2, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(data, 8, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Request pending;
  double in = 0.0, out = 2.0 * r;
  MPI_Irecv(&in, 1, MPI_DOUBLE, other, 3, MPI_COMM_WORLD, &pending);
  MPI_Send(&out, 1, MPI_DOUBLE, other, 3, MPI_COMM_WORLD);
  MPI_Wait(&pending, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: ghost %g in %g\n", r, ghost, in);
  MPI_Finalize();
  return 0;
}
