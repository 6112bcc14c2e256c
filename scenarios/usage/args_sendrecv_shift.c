/* Ring rotation of a particle block: each rank sends its block to the next
 * rank and receives the previous rank's block — into the same array,
 * shifted by one particle to leave room for a header slot. The receive
 * buffer overlaps the send buffer (MPI-4.0 §3.10: they must be disjoint;
 * MPI_Sendrecv_replace is the call for one buffer). Fixed: a separate
 * receive array.
 * ranks: 2
 * expect: aliased-buffers rank 0|1 line 33
 * twin: args_sendrecv_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>

#define NP 256

static double block[NP + 1], incoming[NP + 1];

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < NP; ++i) block[i] = rank * NP + i;
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
#ifdef FIXED
  double* into = incoming + 1;
#else
  double* into = block + 1;
#endif
  (void)incoming;
  for (int step = 0; step < 2; ++step) {
    block[NP] = step;
    MPI_Sendrecv(block, NP, MPI_DOUBLE, next, 5, into, NP, MPI_DOUBLE, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  printf("rank %d: %g\n", rank, into[0]);
  MPI_Finalize();
  return 0;
}
