/* Correct twin of the local-concurrency check: double buffering that
 * refills a buffer only after its send completed, an interior update that
 * leaves the in-flight row alone, and a buffer changed right after MPI_Wait.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>

#define NX 64

static double grid[4][NX];
static double stage[2][NX];

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int peer = (rank + 1) % size;
  for (int step = 0; step < 4; ++step) {
    MPI_Request req[2];
    double* out = stage[step % 2];
    for (int x = 0; x < NX; ++x) out[x] = step + x;
    MPI_Irecv(grid[3], NX, MPI_DOUBLE, peer, step, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out, NX, MPI_DOUBLE, peer, step, MPI_COMM_WORLD, &req[1]);
    for (int x = 1; x < NX - 1; ++x) grid[2][x] = 0.5 * (grid[2][x - 1] + grid[2][x + 1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    out[0] = -1.0;
  }
  MPI_Finalize();
  return 0;
}
