/* A parallel search whose master trusts the first answer, with one worker
 * that is always later than the others by more than system noise bridges.
 *
 * Every round rank 0 hands each worker a slice of the search space (one
 * MPI_Send line, tag 3); worker w searches it, which takes --compute-us
 * plus (w - 1) * --skew-us (slices grow with the worker number, as in an
 * uneven decomposition: by default worker 2 answers 2 ms after worker 1,
 * worker 3 4 ms after), and sends back the first hit of its slice (one
 * MPI_Send line, tag 4). Slices are laid out in worker order, so the round's
 * answer is the smallest hit, and worker 1's hit is the smallest.
 * Rank 0 takes the first answer with MPI_Recv(MPI_ANY_SOURCE, 4) on one
 * line ("the first answer": it starts verifying it at once) and the others
 * with MPI_Recv(MPI_ANY_SOURCE, 4) in a loop on another line.
 * --races (the default): the answer of the round is the first answer to
 * arrive (a bug seen in real "first wins" searches: it is right as long as
 * the lowest slice also answers first); any other is a wrong match
 * (MPI_Abort(0), or counted with --on-wrong count).
 * --safe (the correct twin): the answer is the smallest hit of all answers,
 * in whatever order they arrive (the same two receive lines).
 * Which worker's answer the first receive takes is nondeterministic, but the
 * skew makes it worker 1 in every quiet or noisy run unless a delay longer
 * than the skew hits worker 1 alone: exploration forces the others.
 * scalefuzz must report: the default, an Error race (harmful-race) at rank
 * 0's first receive naming worker 1's and another worker's answer; --safe
 * at most Info. */
#include "races_common.h"

/* The first hit of worker w's slice in round r: slices are consecutive, so
 * a lower worker always has a lower hit. */
static long hit_of(long round, int worker) { return round * 100000L + worker * 1000L + (round * 7 + worker * 13) % 997; }

int main(int argc, char** argv) {
  struct race_options o = {.iterations = 8, .steps = 1, .bytes = 8, .compute_us = 200};
  int rank = 0, size = 1;
  const long skew_us =
      race_start_skewed(&argc, &argv, &o, &rank, &size, 2000, 3, "first_answer needs at least 3 ranks (a master and two workers)");
  double t0 = MPI_Wtime();
  if (rank == 0) {
    long checksum = 0;
    for (long round = 0; round < o.iterations; ++round) {
      for (int w = 1; w < size; ++w) MPI_Send(&round, 1, MPI_LONG, w, 3, MPI_COMM_WORLD);
      long first = 0;
      MPI_Status st;
      MPI_Recv(&first, 1, MPI_LONG, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &st);
      long best = first;
      for (int k = 2; k < size; ++k) {
        long other = 0;
        MPI_Recv(&other, 1, MPI_LONG, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (other < best) best = other;
      }
      const long answer = o.safe ? best : first;
      if (answer != hit_of(round, 1)) race_wrong(&o, rank, round, "the first answer is not the smallest hit");
      checksum = (checksum * 31 + answer) % 1000000007L;
    }
    printf("checksum=%ld\n", checksum);
  } else {
    for (long round = 0; round < o.iterations; ++round) {
      long got = 0;
      MPI_Recv(&got, 1, MPI_LONG, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      race_sleep_us(o.compute_us + (rank - 1) * skew_us);
      long hit = hit_of(got, rank);
      MPI_Send(&hit, 1, MPI_LONG, 0, 4, MPI_COMM_WORLD);
    }
  }
  race_finish(&o, rank, MPI_Wtime() - t0);
  MPI_Finalize();
  return 0;
}
