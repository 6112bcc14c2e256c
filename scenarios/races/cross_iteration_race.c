/* A cross-iteration race in a collect-and-release loop.
 *
 * Rank 0 collects one result per worker each loop with wildcard receives
 * (MPI_Irecv(MPI_ANY_SOURCE, tag 7), one line), and, to overlap, releases
 * the workers for the next loop (MPI_Send of a "go", another line) right
 * after posting those receives instead of after they completed. A worker
 * released early computes --compute-us, sends its next loop's result, and
 * rank 0's receive still waiting for a slow worker's result of this loop can
 * take it: receive k takes the send of loop k+1 of the same site.
 * Results carry (loop, worker); rank 0 checks them.
 *
 * --slow-first-us N: the last worker starts N us late; with 2+ workers the
 * early release then makes the wrong match happen in loop 0 of every run.
 * --safe: rank 0 releases the workers after its receives completed.
 * scalefuzz must report: an Error race finding when the wrong match happens
 * (same sites, another instance), a potential-race Warning on quiet runs
 * (the early "go" makes the next loop's send concurrent with the receive);
 * nothing on --safe. */
#include "races_common.h"

int main(int argc, char** argv) {
  struct race_options o = {.iterations = 100, .steps = 1, .bytes = 8};
  int rank = 0, size = 1;
  race_start(&argc, &argv, &o, &rank, &size);
  const int workers = size - 1;
  const long ints = o.bytes / (long)sizeof(int);
  int* buf = calloc((size_t)(ints * (workers > 0 ? workers : 1)), sizeof(int));
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * (size_t)(workers > 0 ? workers : 1));
  MPI_Status* statuses = malloc(sizeof(MPI_Status) * (size_t)(workers > 0 ? workers : 1));
  int go = 1;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long loop = 0; loop < o.iterations; ++loop) {
    if (rank == 0) {
      for (int w = 0; w < workers; ++w)
        MPI_Irecv(buf + w * ints, (int)o.bytes, MPI_BYTE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &reqs[w]);
      if (!o.safe)
        for (int w = 1; w <= workers; ++w) MPI_Send(&go, 1, MPI_INT, w, 8, MPI_COMM_WORLD);
      MPI_Waitall(workers, reqs, statuses);
      for (int w = 0; w < workers; ++w) {
        if (buf[w * ints] == (int)loop) continue;
        char what[96];
        snprintf(what, sizeof what, "a receive of loop %ld took worker %d's result of loop %d", loop,
                 buf[w * ints + 1], buf[w * ints]);
        race_wrong(&o, rank, loop, what);
      }
      if (o.safe)
        for (int w = 1; w <= workers; ++w) MPI_Send(&go, 1, MPI_INT, w, 8, MPI_COMM_WORLD);
    } else {
      race_busy_us(o.compute_us + (loop == 0 && rank == size - 1 ? o.slow_first_us : 0));
      buf[0] = (int)loop;
      buf[1] = rank;
      MPI_Send(buf, (int)o.bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
      MPI_Recv(&go, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  race_finish(&o, rank, MPI_Wtime() - t0);
  free(buf);
  free(reqs);
  free(statuses);
  MPI_Finalize();
  return 0;
}
