/* Chunked global dot products pipelined with MPI_Iallreduce: each chunk's
 * partial sum goes out while the next chunk is computed. The partial sum
 * of the next chunk is accumulated into the same send buffer the pending
 * reduction still owns (MPI-4.0 §6.12: it must not be modified until the
 * MPI_Wait); the fixed version double-buffers it.
 * ranks: 2
 * expect: buffer-modified rank 0|1 line 35
 * twin: icoll_pipeline_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>

#define N 4096
#define CHUNKS 4

static double x[N], y[N];

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < N; ++i) x[i] = y[i] = 1.0 + (rank + i) % 5;
  double partial[2][1] = {{0}, {0}}, sum[CHUNKS];
  MPI_Request req = MPI_REQUEST_NULL;
  const int len = N / CHUNKS;
  for (int c = 0; c < CHUNKS; ++c) {
#ifdef FIXED
    double* p = partial[c % 2];
#else
    double* p = partial[0];
#endif
    p[0] = 0;
    for (int i = c * len; i < (c + 1) * len; ++i) p[0] += x[i] * y[i];
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Iallreduce(p, &sum[c], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  if (rank == 0) printf("dot = %g\n", sum[0] + sum[1] + sum[2] + sum[3]);
  MPI_Finalize();
  return 0;
}
