/* The textbook wildcard race: every send of an exchange comes from one call
 * site, every receive from another, MPI_ANY_SOURCE, one tag for all steps.
 *
 * Each loop runs --steps exchanges: every rank sends --bytes to each other
 * rank (one MPI_Isend line), posts as many MPI_Irecv(MPI_ANY_SOURCE, tag 0)
 * (one line), waits for both, computes --compute-us, and goes to the next
 * step; a barrier ends the loop. Nothing isolates step s from step s+1: a
 * rank that finished step s can send its step s+1 message to a rank still
 * waiting for a step s message from a slower rank, and the wildcard receive
 * takes it. The payload carries (loop, step, sender); a receive of another
 * step is the program's "wrong match".
 *
 * --safe: the tag is the step number (a unique matching id per step).
 * scalefuzz must report: an Error race finding in runs with a wrong match
 * (receive of step s took the send of step s+1: same sites, other instance),
 * a potential-race Warning even in quiet runs; nothing on --safe. */
#include "races_common.h"

int main(int argc, char** argv) {
  struct race_options o = {.iterations = 100, .steps = 4, .bytes = 8};
  int rank = 0, size = 1;
  race_start(&argc, &argv, &o, &rank, &size);
  const int peers = size - 1;
  const long ints = o.bytes / (long)sizeof(int);
  int* out = calloc((size_t)ints, sizeof(int));
  int* in = calloc((size_t)(ints * (peers > 0 ? peers : 1)), sizeof(int));
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * (size_t)(2 * (peers > 0 ? peers : 1)));
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long loop = 0; loop < o.iterations; ++loop) {
    for (long step = 0; step < o.steps; ++step) {
      const int stamp = (int)(loop * o.steps + step);
      const int tag = o.safe ? (int)(step + 1) : 0;
      out[0] = stamp;
      out[1] = rank;
      int n = 0;
      for (int k = 1; k <= peers; ++k) {
        MPI_Isend(out, (int)o.bytes, MPI_BYTE, (rank + k) % size, tag, MPI_COMM_WORLD, &reqs[n++]);
        race_busy_us(o.overhead_us);
      }
      for (int k = 0; k < peers; ++k) {
        MPI_Irecv(in + k * ints, (int)o.bytes, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &reqs[n++]);
        race_busy_us(o.overhead_us);
      }
      race_waitall(&o, n, reqs, MPI_STATUSES_IGNORE);
      race_check_stamps(&o, rank, loop, step, in, peers, ints, stamp, "step");
      race_busy_us(o.compute_us);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  race_finish(&o, rank, MPI_Wtime() - t0);
  free(out);
  free(in);
  free(reqs);
  MPI_Finalize();
  return 0;
}
