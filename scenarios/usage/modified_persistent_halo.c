/* 1-D heat equation with persistent halo requests: the boundary cells are
 * relaxed right after MPI_Startall, while the persistent sends of those same
 * cells are still in flight (they must wait until after MPI_Waitall).
 * ranks: 2
 * expect: buffer-modified rank 0|1 line 27
 * twin: modified_persistent_ok -DFIXED
 */
#include <mpi.h>

#include "../spine/common_args.h"

#define N 256

static double u[N + 2], v[N + 2];

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int i = 0; i < N + 2; ++i) u[i] = rank * 100.0 + i;
  MPI_Request req[4];
  MPI_Recv_init(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
  MPI_Recv_init(&u[N + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
  MPI_Send_init(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[2]);
  MPI_Send_init(&u[N], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
  for (int step = 0; step < 3; ++step) {
    MPI_Startall(4, req);
    for (int i = 2; i < N; ++i) v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
#ifndef FIXED
    /* boundary relaxation before the halo sends completed */
    u[1] = 0.5 * u[1] + 0.5 * u[2];
    u[N] = 0.5 * u[N] + 0.5 * u[N - 1];
#endif
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
#ifdef FIXED
    u[1] = 0.5 * u[1] + 0.5 * u[2];
    u[N] = 0.5 * u[N] + 0.5 * u[N - 1];
#endif
    for (int i = 2; i < N; ++i) u[i] = v[i];
  }
  for (int i = 0; i < 4; ++i) MPI_Request_free(&req[i]);
  MPI_Finalize();
  return 0;
}
