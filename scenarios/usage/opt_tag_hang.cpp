/* C++ at -O3: a two-stage pipeline; the producer sends its block with the
 * tag of the next stage, the consumer waits for the block tag forever.
 * ranks: 2
 * expect: unmatched-send rank 0 line 27
 * twin: opt_tag_hang_ok -DFIXED
 */
#include <mpi.h>
#include <cstdio>

enum Tag { kBlock = 100, kResult = 101 };

#ifdef FIXED
#define SEND_TAG kBlock
#else
#define SEND_TAG kResult
#endif

struct Stage {
  double block[32];
  MPI_Request req = MPI_REQUEST_NULL;
  void produce(int peer, int step) {
    for (int k = 0; k < 32; ++k) block[k] = step + k;
    post(peer);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  void post(int peer) {
    MPI_Isend(block, 32, MPI_DOUBLE, peer, SEND_TAG, MPI_COMM_WORLD, &req);
  }
  double consume(int peer) {
    MPI_Irecv(block, 32, MPI_DOUBLE, peer, kBlock, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    return block[31];
  }
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Stage s;
  double sum = 0;
  for (int step = 0; step < 3; ++step) {
    if (rank == 0) s.produce(1, step);
    else if (rank == 1) sum += s.consume(0);
  }
  if (rank == 1) std::printf("sum=%g\n", sum);
  MPI_Finalize();
  return 0;
}
