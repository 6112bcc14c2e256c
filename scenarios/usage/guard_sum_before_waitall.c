/* A manual reduction at the coordinator: rank 0 posts one receive per worker
 * into rows of a contributions table and folds each row into the total as
 * soon as it has posted them all — summing the receive buffers before
 * MPI_Waitall says they arrived (the total silently misses contributions).
 * ranks: 3
 * mode: guard-receives
 * expect: receive-buffer-accessed rank 0 line 33
 * twin: guard_sum_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../spine/common_args.h"

#define WIDTH 64

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  if (rank == 0) {
    double* rows = malloc((size_t)size * WIDTH * sizeof(double));
    double* total = calloc(WIDTH, sizeof(double));
    MPI_Request* req = malloc((size_t)size * sizeof(MPI_Request));
    int n = 0;
    for (int src = 1; src < size; ++src)
      MPI_Irecv(&rows[src * WIDTH], WIDTH, MPI_DOUBLE, src, 3, MPI_COMM_WORLD, &req[n++]);
#ifdef FIXED
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
#endif
    for (int src = 1; src < size; ++src)
      for (int i = 0; i < WIDTH; ++i) {
        double v = rows[src * WIDTH + i];
        total[i] += v;
      }
#ifndef FIXED
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
#endif
    printf("total[0] = %g\n", total[0]);
    free(req);
    free(total);
    free(rows);
  } else {
    double part[WIDTH];
    for (int i = 0; i < WIDTH; ++i) part[i] = rank * 100.0 + i;
    MPI_Send(part, WIDTH, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
