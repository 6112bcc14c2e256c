/* Solver set-up: the root broadcasts the run parameters with MPI_Ibcast
 * and every rank allocates its work arrays meanwhile — but the allocation
 * size is read from the parameter block before the broadcast completed
 * (MPI-4.0 §6.12: a pending collective's receive buffer must not be read).
 * Found under guarded receives (the read does not change the buffer).
 * Fixed: read the parameters after MPI_Wait.
 * ranks: 2
 * mode: guard-receives
 * expect: receive-buffer-accessed rank 1 line 37
 * twin: icoll_ibcast_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

struct params {
  long cells;
  long steps;
  long pad[6];
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long* prm = calloc(8, sizeof(long)); /* struct params as 8 longs */
  if (rank == 0) {
    prm[0] = 1000;
    prm[1] = 10;
  }
  MPI_Request req;
  MPI_Ibcast(prm, 8, MPI_LONG, 0, MPI_COMM_WORLD, &req);
  long cells = 16;
#ifdef FIXED
  MPI_Wait(&req, MPI_STATUS_IGNORE);
#endif
  cells = prm[0] > 0 ? prm[0] : 16;
#ifndef FIXED
  MPI_Wait(&req, MPI_STATUS_IGNORE);
#endif
  double* u = calloc((size_t)cells, sizeof(double));
  for (long s = 0; s < prm[1]; ++s)
    for (long i = 0; i < cells; ++i) u[i] += 1.0;
  printf("rank %d: %ld cells\n", rank, cells);
  free(u);
  free(prm);
  MPI_Finalize();
  return 0;
}
