/* Persistent receive of a boundary row used as scratch space: after the
 * step's MPI_Allreduce (by which the row has arrived) the code borrows the
 * receive row to stage its residuals, before MPI_Wait — so the received
 * boundary is lost.
 * ranks: 2
 * expect: receive-buffer-written rank 0|1 line 27
 */
#include <mpi.h>

#include "../spine/common_args.h"

#define NX 48

static double row_in[NX], row_out[NX], field[NX];

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  int peer = (rank + 1) % size;
  MPI_Request req[2];
  MPI_Recv_init(row_in, NX, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD, &req[0]);
  MPI_Send_init(row_out, NX, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD, &req[1]);
  for (int x = 0; x < NX; ++x) field[x] = rank + x;
  for (int step = 0; step < 3; ++step) {
    double res = 0.0, total = 0.0;
    for (int x = 0; x < NX; ++x) row_out[x] = field[x];
    MPI_Startall(2, req);
    for (int x = 0; x < NX; ++x) res += field[x];
    MPI_Allreduce(&res, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int x = 0; x < NX; ++x) row_in[x] = field[x] - total; /* scratch */
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    for (int x = 0; x < NX; ++x) field[x] = 0.5 * (field[x] + row_in[x]);
  }
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
  MPI_Finalize();
  return 0;
}
