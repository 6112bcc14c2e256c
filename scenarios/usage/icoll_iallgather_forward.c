/* Load balancer: every rank publishes its work estimate with
 * MPI_Iallgather and, to save a round trip, forwards the gathered table to
 * the I/O rank before the gather completed — MPI_Send reads the receive
 * buffer of a pending nonblocking collective (MPI-4.0 §6.12), so rank 1
 * gets whatever the table held before. Fixed: MPI_Wait first.
 * ranks: 2
 * expect: overlapping-buffers rank 0 line 30
 * twin: icoll_iallgather_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double mine = 100.0 + rank;
  double* table = calloc((size_t)size, sizeof(double));
  double* copy = calloc((size_t)size, sizeof(double));
  MPI_Request req;
  MPI_Iallgather(&mine, 1, MPI_DOUBLE, table, 1, MPI_DOUBLE, MPI_COMM_WORLD, &req);
  if (rank == 0) {
#ifdef FIXED
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Send(table, size, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
#else
    /* the I/O rank needs the table: send it while the gather finishes */
    MPI_Send(table, size, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
#endif
  } else if (rank == 1) {
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Recv(copy, size, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("table[0] = %g\n", copy[0]);
  } else {
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  free(copy);
  free(table);
  MPI_Finalize();
  return 0;
}
