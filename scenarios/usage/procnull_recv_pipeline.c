/* A two-stage pipeline where each stage receives from two ranks back
 * (an off-by-one in the stage distance): rank 1 asks MPI_PROC_NULL for its
 * input and goes on with zeros, while rank 0's block is never received.
 * ranks: 2
 * expect: invalid-argument rank 1 line 34
 * twin: procnull_recv_pipeline_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>

#define BLOCK 16

#ifdef FIXED
#define DISTANCE 1
#else
#define DISTANCE 2
#endif
static int upstream(int rank) { return rank >= DISTANCE ? rank - DISTANCE : MPI_PROC_NULL; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  float stage[BLOCK] = {0};
  if (rank == 0) {
    for (int k = 0; k < BLOCK; ++k) stage[k] = 1.5f * k;
  }
  if (rank + 1 < size) {
    if (rank > 0) MPI_Recv(stage, BLOCK, MPI_FLOAT, upstream(rank), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(stage, BLOCK, MPI_FLOAT, rank + 1, 1, MPI_COMM_WORLD);
  } else {
    /* last stage */
    MPI_Recv(stage, BLOCK, MPI_FLOAT, upstream(rank), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("result %g\n", stage[BLOCK - 1]);
  }
  MPI_Finalize();
  return 0;
}
