/* Halo exchange overlapped with computation: the interior update also
 * writes the boundary row that is still being sent.
 * ranks: 2
 * expect: buffer-modified rank 0|1 line 23
 */
#include <mpi.h>

#define NX 64

static double grid[4][NX];

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int peer = (rank + 1) % size;
  for (int i = 0; i < 4; ++i)
    for (int x = 0; x < NX; ++x) grid[i][x] = (rank + 1) * (i + 1) * (x % 7);
  for (int step = 0; step < 2; ++step) {
    MPI_Request req[2];
    MPI_Irecv(grid[3], NX, MPI_DOUBLE, peer, step, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(grid[1], NX, MPI_DOUBLE, peer, step, MPI_COMM_WORLD, &req[1]);
    for (int i = 1; i < 3; ++i) /* should be i = 2: row 1 is in flight */
      for (int x = 1; x < NX - 1; ++x) grid[i][x] = 0.25 * (grid[i - 1][x] + grid[i + 1][x] + grid[i][x - 1] + grid[i][x + 1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
