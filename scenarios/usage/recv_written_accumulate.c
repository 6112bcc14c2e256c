/* Neighbour sums: each rank receives its neighbour's partial sums and adds
 * its own — but the adding happens while the receive is still pending (after
 * a global norm that let the message arrive), so the received values are
 * overwritten and the result is wrong without any error from MPI.
 * ranks: 2
 * expect: receive-buffer-written rank 0|1 line 24
 * twin: recv_written_ok -DFIXED
 */
#include <mpi.h>

#include "../spine/common_args.h"

#define N 32

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  int peer = (rank + 1) % size;
  double local[N], sums[N];
  for (int i = 0; i < N; ++i) local[i] = rank + i * 0.5;
  for (int step = 0; step < 2; ++step) {
    double norm = 0.0, total = 0.0;
    MPI_Request req[2];
    MPI_Irecv(sums, N, MPI_DOUBLE, peer, step, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(local, N, MPI_DOUBLE, peer, step, MPI_COMM_WORLD, &req[1]);
    for (int i = 0; i < N; ++i) norm += local[i] * local[i];
    MPI_Allreduce(&norm, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#ifndef FIXED
    for (int i = 0; i < N; ++i) sums[i] += local[i] / (1.0 + total);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
#else
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < N; ++i) sums[i] += local[i] / (1.0 + total);
#endif
    for (int i = 0; i < N; ++i) local[i] = 0.5 * (local[i] + sums[i]);
  }
  MPI_Finalize();
  return 0;
}
