/* Shutdown notification sent only on one path: rank 1 posts the receive of
 * rank 0's "stop" message and waits for it, but rank 0 sends it only when
 * it found something to report, and finalizes otherwise.
 * ranks: 2
 * expect: waits-for-finalized rank 1 line 31
 */
#include <mpi.h>

#include "../spine/common_args.h"

static int scan(const int* v, int n) {
  int hits = 0;
  for (int i = 0; i < n; ++i) hits += v[i] < 0;
  return hits;
}

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  int data[64];
  for (int i = 0; i < 64; ++i) data[i] = i;
  if (rank == 0) {
    int hits = scan(data, 64);
    if (hits > 0) MPI_Send(&hits, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
  } else if (rank == 1) {
    int stop = 0;
    MPI_Request req;
    MPI_Irecv(&stop, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &req);
    long sum = 0;
    for (int i = 0; i < 64; ++i) sum += data[i];
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
