/* 1-D heat diffusion split over the ranks, ghost cells exchanged every step
 * with nonblocking receives. To overlap communication and computation the
 * interior is updated while the halos travel — but the two boundary cells,
 * which read the ghost cells, are updated before MPI_Waitall: they read the
 * receive buffer while the receive is still pending (stale or half-written
 * values, depending on when MPI copies the message in).
 * ranks: 2
 * mode: guard-receives
 * expect: receive-buffer-accessed rank 0|1 line 37
 * twin: guard_halo_ok -DFIXED
 */
#include <mpi.h>
#include <stdlib.h>

#include "../spine/common_args.h"

#define CELLS 512

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double* u = malloc(CELLS * sizeof(double));
  double* next = malloc(CELLS * sizeof(double));
  double* ghost = malloc(2 * sizeof(double)); /* [0]: from the left, [1]: from the right */
  for (int i = 0; i < CELLS; ++i) u[i] = rank * CELLS + i;
  for (int step = 0; step < 4; ++step) {
    MPI_Request req[4];
    MPI_Irecv(&ghost[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&ghost[1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[CELLS - 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[3]);
    for (int i = 1; i < CELLS - 1; ++i) next[i] = u[i] + 0.25 * (u[i - 1] - 2 * u[i] + u[i + 1]);
#ifdef FIXED
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
#endif
    next[0] = u[0] + 0.25 * (ghost[0] - 2 * u[0] + u[1]);
    next[CELLS - 1] = u[CELLS - 1] + 0.25 * (u[CELLS - 2] - 2 * u[CELLS - 1] + ghost[1]);
#ifndef FIXED
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
#endif
    double* t = u;
    u = next;
    next = t;
  }
  free(ghost);
  free(next);
  free(u);
  MPI_Finalize();
  return 0;
}
