/* Producer/consumer pipeline with one persistent send: the producer starts
 * the send of chunk k and immediately generates chunk k+1 into the same
 * buffer (double buffering was meant), before MPI_Wait.
 * ranks: 2
 * expect: buffer-modified rank 0 line 28
 */
#include <mpi.h>

#include "../spine/common_args.h"

#define CHUNK 512
#define CHUNKS 4

static int chunk[CHUNK];

static void produce(int* out, int k) {
  for (int i = 0; i < CHUNK; ++i) out[i] = k * CHUNK + i;
}

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  MPI_Request req;
  if (rank == 0) {
    MPI_Send_init(chunk, CHUNK, MPI_INT, 1, 7, MPI_COMM_WORLD, &req);
    produce(chunk, 0);
    for (int k = 0; k < CHUNKS; ++k) {
      MPI_Start(&req);
      if (k + 1 < CHUNKS) produce(chunk, k + 1);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
  } else if (rank == 1) {
    long sum = 0;
    MPI_Recv_init(chunk, CHUNK, MPI_INT, 0, 7, MPI_COMM_WORLD, &req);
    for (int k = 0; k < CHUNKS; ++k) {
      MPI_Start(&req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      for (int i = 0; i < CHUNK; ++i) sum += chunk[i];
    }
  }
  if (rank < 2) MPI_Request_free(&req);
  MPI_Finalize();
  return 0;
}
