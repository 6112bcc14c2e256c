/* Receive cost for the decision-log bench: 1 rank sends to itself with
 * MPI_Isend and receives with a blocking MPI_Recv naming the source
 * ("named", no decision) or MPI_ANY_SOURCE ("wildcard", one logged match
 * each), then MPI_Wait on the send.
 * usage: replay_recv_bench ITERATIONS named|wildcard */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  long iters = argc > 1 ? atol(argv[1]) : 100000;
  const int wildcard = argc > 2 && strcmp(argv[2], "wildcard") == 0;
  int out = 1, in = 0;
  MPI_Request rq;
  const double t0 = MPI_Wtime();
  for (long i = 0; i < iters; ++i) {
    MPI_Isend(&out, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &rq);
    MPI_Recv(&in, 1, MPI_INT, wildcard ? MPI_ANY_SOURCE : 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
  }
  printf("seconds %.6f iterations %ld\n", MPI_Wtime() - t0, iters);
  MPI_Finalize();
  return 0;
}
