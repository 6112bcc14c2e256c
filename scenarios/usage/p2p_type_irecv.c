/* Nonblocking exchange: doubles sent, long longs received.
 * ranks: 2
 * expect: type-mismatch rank 0 line 17
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int other = 1 - rank;
  double out[2] = {1.0, 2.0};
  long long in[2];
  double din[2];
  MPI_Request r[2];
  if (rank == 0)
    MPI_Irecv(in, 2, MPI_LONG_LONG, other, 0, MPI_COMM_WORLD, &r[0]);
  else
    MPI_Irecv(din, 2, MPI_DOUBLE, other, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(out, 2, MPI_DOUBLE, other, 0, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Finalize();
  return 0;
}
