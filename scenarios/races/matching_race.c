/* The textbook matching race, in the shape of the reference NINJA test
 * (PRUNERS/NINJA test/ninja_test_matching_race.c, SR mode; the issue's
 * program): every rank picks, once, a random set of destinations (the C
 * library's rand() seeded with its rank: rand() % (size + 1) draws of
 * rand() % size, repeats and itself allowed), learns with one
 * MPI_Allreduce of those sets how many messages it will receive, and then
 * runs --steps patterns per loop: an MPI_Isend to each destination (one
 * line), as many MPI_Irecv(MPI_ANY_SOURCE, tag 0) as it will receive (one
 * line), MPI_Waitall on the sends, MPI_Waitall on the receives, a check of
 * the values, a sleep of --compute-us (the reference's usleep interval);
 * a barrier ends the loop. A rank with nothing (left) to receive goes on to
 * the next pattern and its message can reach a receiver that still waits
 * for a message of this pattern from a slower rank: the wildcard receive
 * takes it. The payload carries (pattern number, sender).
 *
 * --steps defaults to 2, the reference's run script (test/run_sc16_ex3.sh,
 * num_pattern=2). As the reference, rank 0 writes "loop: N" on stderr as
 * each loop starts (--print-loops 0: not). --slow-first-us N: the last
 * rank sleeps N us before loop 0. --safe: the tag is the pattern (a unique
 * matching id per pattern).
 * scalefuzz must report: an Error race finding in runs with a wrong match
 * (receive #k took the send of the next pattern: same sites, another
 * instance), a potential-race Warning even on quiet runs; nothing on --safe. */
#include "races_common.h"

/* This rank's destination flags: the same draw for every pattern (the
 * reference reseeds with the rank before each pattern's draw). */
static void draw_destinations(int rank, int size, int* flags) {
  srand((unsigned)rank);
  const int draws = rand() % (size + 1);
  memset(flags, 0, sizeof(int) * (size_t)size);
  for (int i = 0; i < draws; ++i) flags[rand() % size] = 1;
}

int main(int argc, char** argv) {
  struct race_options o = {.iterations = 100, .steps = 2, .bytes = 8, .print_loops = 1};
  int rank = 0, size = 1;
  race_start(&argc, &argv, &o, &rank, &size);
  int* flags = malloc(sizeof(int) * (size_t)size);
  int* incoming = malloc(sizeof(int) * (size_t)size);
  int* dests = malloc(sizeof(int) * (size_t)size);
  draw_destinations(rank, size, flags);
  MPI_Allreduce(flags, incoming, size, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int sends = 0;
  for (int d = 0; d < size; ++d)
    if (flags[d]) dests[sends++] = d;
  const int receives = incoming[rank];
  free(flags);
  free(incoming);
  const long ints = o.bytes / (long)sizeof(int);
  int* out = calloc((size_t)ints, sizeof(int));
  int* in = calloc((size_t)(ints * (receives > 0 ? receives : 1)), sizeof(int));
  MPI_Request* send_reqs = malloc(sizeof(MPI_Request) * (size_t)(sends > 0 ? sends : 1));
  MPI_Request* recv_reqs = malloc(sizeof(MPI_Request) * (size_t)(receives > 0 ? receives : 1));
  MPI_Status* statuses = malloc(sizeof(MPI_Status) * (size_t)size * 2);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long loop = 0; loop < o.iterations; ++loop) {
    race_loop_line(&o, rank, loop);
    if (loop == 0 && rank == size - 1) race_sleep_us(o.slow_first_us);
    for (long step = 0; step < o.steps; ++step) {
      const int stamp = (int)(loop * o.steps + step);
      const int tag = o.safe ? (int)(step + 1) : 0;
      out[0] = stamp;
      out[1] = rank;
      for (int k = 0; k < sends; ++k) {
        MPI_Isend(out, (int)o.bytes, MPI_BYTE, dests[k], tag, MPI_COMM_WORLD, &send_reqs[k]);
        race_busy_us(o.overhead_us);
      }
      for (int k = 0; k < receives; ++k) {
        MPI_Irecv(in + k * ints, (int)o.bytes, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &recv_reqs[k]);
        race_busy_us(o.overhead_us);
      }
      race_waitall(&o, sends, send_reqs, statuses);
      race_waitall(&o, receives, recv_reqs, statuses);
      race_check_stamps(&o, rank, loop, step, in, receives, ints, stamp, "pattern");
      race_sleep_us(o.compute_us);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  const double seconds = MPI_Wtime() - t0;
  void* buffers[] = {dests, out, in, send_reqs, recv_reqs, statuses};
  for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; ++i) free(buffers[i]);
  race_finish(&o, rank, seconds);
  MPI_Finalize();
  return 0;
}
