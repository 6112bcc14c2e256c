/* Rank 1 spins on a "data ready" flag that only a signal handler it never
 * installed would set, before sending its block; rank 0 has posted the
 * receive and waits in MPI_Wait for a rank that runs outside MPI.
 * ranks: 2
 * expect: waits-for-rank-outside-mpi rank 0 line 28
 */
#include <mpi.h>

#include "../spine/common_args.h"
#include <signal.h>

static volatile sig_atomic_t data_ready = 0;

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  int block[16];
  for (int i = 0; i < 16; ++i) block[i] = rank * 16 + i;
  if (rank == 1) {
    unsigned long spins = 0;
    while (!data_ready) ++spins;
    MPI_Send(block, 16, MPI_INT, 0, 4, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Request req;
    MPI_Irecv(block, 16, MPI_INT, 1, 4, MPI_COMM_WORLD, &req);
    long local = 0;
    for (int i = 0; i < 16; ++i) local += block[i];
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
