/* A tree of partial results over an uneven decomposition, each parent
 * receiving its children's partials with MPI_ANY_SOURCE.
 *
 * The ranks form a binary tree over [0, size): a node owns the first rank of
 * its range, its left child the smaller half of the rest, its right child
 * the larger half (at 4 ranks: 0 <- {1, 2}, 2 <- {3}). Every round each rank
 * computes its own block, which takes --compute-us plus rank x --skew-us
 * (10 ms: the blocks grow with the rank, a domain that gets denser towards
 * the last rank), then takes its children's partials with
 * MPI_Recv(MPI_ANY_SOURCE, tag 5), the left part on one line and the right
 * part on another, joins own, left, right (rank order), and sends the partial to its
 * parent (one MPI_Send line). A partial is an ordered join (a polynomial
 * hash of the blocks in rank order: non-commutative, as a concatenation of
 * segments or a prefix sum is), so the root's result is right only if every
 * part lands on its side. The left subtree is smaller and its ranks lower,
 * so its partial arrives first by more than a skew in every quiet run and
 * under noise (µs to 2 ms delays). The root broadcasts the round's result,
 * which every rank needs for its next block (a reduce-then-broadcast).
 * --races (the default): the first receive is taken to be the left part.
 * --safe (the correct twin): the same two wildcard receives, each part
 * placed by status.MPI_SOURCE; arrival order does not matter.
 * scalefuzz must report: the default, an Error race (harmful-race) at a
 * parent's first receive (exploration forces the right child's partial
 * there); --safe at most Info. */
#include "races_common.h"

/* A partial: the hash of the blocks [first, first + count) joined in order. */
struct partial {
  long hash, first, count;
};
static const long kPrime = 1000003, kBase = 7919;

static long power(long b, long e) {
  long r = 1;
  while (e-- > 0) r = r * b % kPrime;
  return r;
}
static struct partial join(struct partial a, struct partial b) {
  struct partial out = {(a.hash * power(kBase, b.count) + b.hash) % kPrime, a.first, a.count + b.count};
  return out;
}
static long block_of(long round, int rank) { return (round * 131 + rank * 17 + 1) % kPrime; }

int main(int argc, char** argv) {
  struct race_options o = {.iterations = 4, .steps = 1, .bytes = 8, .compute_us = 1000};
  int rank = 0, size = 1;
  const long skew_us = race_start_skewed(&argc, &argv, &o, &rank, &size, 10000, 1, "");
  /* This rank's node: walk down from the root's range [0, size). */
  int lo = 0, hi = size, parent = -1;
  while (lo != rank) {
    const int mid = lo + 1 + (hi - lo - 1) / 2;
    parent = lo;
    if (rank < mid) lo = lo + 1, hi = mid;
    else lo = mid;
  }
  const int mid = lo + 1 + (hi - lo - 1) / 2;
  const int left = lo + 1 < mid ? lo + 1 : -1, right = mid < hi ? mid : -1;
  double t0 = MPI_Wtime();
  long total = 0;
  for (long round = 0; round < o.iterations; ++round) {
    race_sleep_us(o.compute_us + rank * skew_us);
    struct partial own = {block_of(round + total, rank), rank, 1}, parts[2] = {{0, 0, 0}, {0, 0, 0}};
    MPI_Status st;
    if (left >= 0) {
      MPI_Recv(&parts[0], 3, MPI_LONG, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
      if (o.safe && st.MPI_SOURCE == right) parts[1] = parts[0];
    }
    if (right >= 0) {
      struct partial got;
      MPI_Recv(&got, 3, MPI_LONG, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
      parts[o.safe && st.MPI_SOURCE == left ? 0 : 1] = got;
    }
    /* own block (the range's first rank), left part, right part: rank order */
    struct partial mine = join(join(own, parts[0]), parts[1]);
    if (parent >= 0) {
      MPI_Send(&mine, 3, MPI_LONG, parent, 5, MPI_COMM_WORLD);
    } else {
      struct partial expect = {0, 0, 0};
      for (int r = 0; r < size; ++r) expect = join(expect, (struct partial){block_of(round + total, r), r, 1});
      if (mine.hash != expect.hash) race_wrong(&o, rank, round, "the tree's parts were joined out of rank order");
      total = expect.hash % 1000; /* the right result, so one wrong round does not spoil the next */
    }
    MPI_Bcast(&total, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  }
  race_finish(&o, rank, MPI_Wtime() - t0);
  MPI_Finalize();
  return 0;
}
