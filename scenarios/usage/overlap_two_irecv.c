/* Two pending receives into overlapping halves of one buffer (off by one).
 * ranks: 2
 * expect: overlapping-buffers rank 0 line 17
 */
#include <mpi.h>

#define N 8

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int buf[2 * N] = {0};
  if (rank == 0) {
    MPI_Request r[2];
    MPI_Irecv(buf, N, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(buf + N - 1, N, MPI_INT, 1, 1, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  } else if (rank == 1) {
    MPI_Send(buf, N, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Send(buf, N, MPI_INT, 0, 1, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
