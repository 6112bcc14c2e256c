/* A pipeline with persistent requests: every iteration starts the receive of
 * the upstream stage's block and the send of this stage's block, then checks
 * convergence on the received block — before MPI_Waitall completes the
 * receive that MPI_Start started (the check should use last iteration's copy).
 * ranks: 2
 * mode: guard-receives
 * expect: receive-buffer-accessed rank 0|1 line 37
 * twin: guard_persistent_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../spine/common_args.h"

#define BLOCK 256

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  int up = (rank + size - 1) % size, down = (rank + 1) % size;
  /* one allocation: this stage's block, the incoming one, the last copy */
  double* blocks = malloc(3 * BLOCK * sizeof(double));
  double *mine = blocks, *incoming = blocks + BLOCK, *previous = blocks + 2 * BLOCK;
  for (int i = 0; i < BLOCK; ++i) mine[i] = previous[i] = incoming[i] = rank + i;
  MPI_Request req[2];
  MPI_Recv_init(incoming, BLOCK, MPI_DOUBLE, up, 7, MPI_COMM_WORLD, &req[0]);
  MPI_Send_init(mine, BLOCK, MPI_DOUBLE, down, 7, MPI_COMM_WORLD, &req[1]);
  double change = 1.0;
  for (int it = 0; it < 5 && change > 1e-9; ++it) {
    MPI_Startall(2, req);
#ifdef FIXED
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
#endif
    change = 0.0;
    for (int i = 0; i < BLOCK; ++i) {
      double d = incoming[i] > previous[i] ? incoming[i] - previous[i] : previous[i] - incoming[i];
      if (d > change) change = d;
    }
#ifndef FIXED
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
#endif
    for (int i = 0; i < BLOCK; ++i) {
      previous[i] = incoming[i];
      mine[i] = 0.5 * (mine[i] + incoming[i]);
    }
  }
  if (rank == 0) printf("last change %g\n", change);
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
  free(blocks);
  MPI_Finalize();
  return 0;
}
