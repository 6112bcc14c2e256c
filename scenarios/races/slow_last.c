/* A master/worker code in phases whose last rank is slow and always
 * answers last (it also writes the checkpoint).
 *
 * Every round has two phases (size the output, tag 1; fill it, tag 2). In
 * each, rank 0 sends every other rank its work (one MPI_Send line), the
 * compute ranks answer after --compute-us plus rank x --skew-us / 4, the
 * last rank, which also writes the checkpoint, after --compute-us plus
 * --skew-us (10 ms) more than any compute rank. Rank 0 collects a phase in
 * one function: the compute ranks' answers with MPI_Recv(MPI_ANY_SOURCE,
 * tag) in a loop on one line, then the checkpoint rank's answer (its file
 * offset) with MPI_Recv(MPI_ANY_SOURCE, tag) on another line.
 * --races (the default): the last answer is taken to be the checkpoint
 * rank's (it has always been, by more than a skew, in quiet runs and under
 * noise); if another rank's answer comes last, its payload is used as the
 * offset. --safe (the correct twin): the same two wildcard receives, each
 * answer filed by status.MPI_SOURCE.
 * scalefuzz must report: the default, an Error race (harmful-race) at rank
 * 0's receive of the checkpoint answer (or its loop's receive); --safe at
 * most Info. */
#include "races_common.h"

/* What rank r answers in phase `tag` of round `round`: a compute rank its
 * partial count, the checkpoint rank its offset (negative: told apart). */
static long answer_of(long round, int tag, int r, int checkpoint_rank) {
  return r == checkpoint_rank ? -(round * 1000 + tag * 100 + 1) : round * 1000 + tag * 100 + r * 7;
}

/* Rank 0's side of one phase: hand out the work, take the answers. The
 * checkpoint offset and the compute ranks' sum go to *offset and *sum. */
static void collect(const struct race_options* o, int size, long round, int tag, long* offset, long* sum) {
  const int checkpoint_rank = size - 1;
  for (int r = 1; r < size; ++r) MPI_Send(&round, 1, MPI_LONG, r, tag, MPI_COMM_WORLD);
  *sum = 0;
  *offset = 0;
  MPI_Status st;
  for (int k = 1; k < size - 1; ++k) {
    long got = 0;
    MPI_Recv(&got, 1, MPI_LONG, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st);
    if (o->safe && st.MPI_SOURCE == checkpoint_rank) *offset = got;
    else *sum += got;
  }
  long last = 0;
  MPI_Recv(&last, 1, MPI_LONG, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st);
  if (!o->safe || st.MPI_SOURCE == checkpoint_rank) *offset = last;
  else *sum += last;
}

int main(int argc, char** argv) {
  struct race_options o = {.iterations = 4, .steps = 1, .bytes = 8, .compute_us = 1000};
  int rank = 0, size = 1;
  const long skew_us = race_start_skewed(&argc, &argv, &o, &rank, &size, 10000, 3,
                                        "slow_last needs at least 3 ranks (a master, a compute rank, a checkpoint rank)");
  const int checkpoint_rank = size - 1;
  double t0 = MPI_Wtime();
  for (long round = 0; round < o.iterations; ++round) {
    for (int tag = 1; tag <= 2; ++tag) {
      if (rank == 0) {
        long offset = 0, sum = 0, expect_sum = 0;
        collect(&o, size, round, tag, &offset, &sum);
        for (int r = 1; r < checkpoint_rank; ++r) expect_sum += answer_of(round, tag, r, checkpoint_rank);
        if (offset != answer_of(round, tag, checkpoint_rank, checkpoint_rank) || sum != expect_sum)
          race_wrong(&o, rank, round, "a compute rank's answer was taken as the checkpoint offset");
      } else {
        long got = 0;
        MPI_Recv(&got, 1, MPI_LONG, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        race_sleep_us(o.compute_us + (rank == checkpoint_rank ? (size - 2) * skew_us / 4 + skew_us : rank * skew_us / 4));
        const long answer = answer_of(got, tag, rank, checkpoint_rank);
        MPI_Send(&answer, 1, MPI_LONG, 0, tag, MPI_COMM_WORLD);
      }
    }
  }
  race_finish(&o, rank, MPI_Wtime() - t0);
  MPI_Finalize();
  return 0;
}
