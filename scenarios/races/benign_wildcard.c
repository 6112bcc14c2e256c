/* A benign wildcard program: the order varies, the result does not.
 *
 * Each loop every worker sends a partial sum to rank 0 (one MPI_Send line);
 * rank 0 takes them with MPI_Recv(MPI_ANY_SOURCE) (one line) in whatever
 * order they arrive, adds them (integer addition: order-independent), and
 * broadcasts the new total, which every rank needs for its next partial.
 * The broadcast separates the loops, so a receive can only ever take a
 * result of its own loop. The last line, "total=N", is the same in every
 * run; --safe receives from each worker in rank order (deterministic).
 * scalefuzz must report: at most an Info (matching order varies), never an
 * Error or a potential-race Warning. */
#include "races_common.h"

int main(int argc, char** argv) {
  struct race_options o = {.iterations = 100, .steps = 1, .bytes = 8};
  int rank = 0, size = 1;
  race_start(&argc, &argv, &o, &rank, &size);
  long total = 1;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long loop = 0; loop < o.iterations; ++loop) {
    race_busy_us(o.compute_us);
    long partial[2] = {(total + rank) % 1000003, loop};
    if (rank == 0) {
      long sum = partial[0];
      for (int w = 1; w < size; ++w) {
        long got[2];
        MPI_Recv(got, 2, MPI_LONG, o.safe ? w : MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (got[1] != loop) race_wrong(&o, rank, loop, "a partial sum of another loop");
        sum += got[0];
      }
      total = sum % 1000003;
    } else {
      MPI_Send(partial, 2, MPI_LONG, 0, 3, MPI_COMM_WORLD);
    }
    MPI_Bcast(&total, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  }
  race_finish(&o, rank, MPI_Wtime() - t0);
  if (rank == 0) printf("total=%ld\n", total);
  MPI_Finalize();
  return 0;
}
