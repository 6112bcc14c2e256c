/* ninja_case1 — NINJA case 1 (Sato et al., PPoPP'17, Figure 9): random
 * destinations with computation between two unsafe routines.
 *
 * Every iteration runs Routine A, Routine X, Routine B. In A and B each rank
 * sends --messages messages (MPI_Isend) along random permutations that every
 * rank derives from --seed, so each rank knows it receives exactly
 * --messages of them, and receives them with MPI_ANY_SOURCE (MPI_Recv), then
 * waits for its sends. Routine X is --compute-us of busy computation.
 *
 * The bug: A and B use the same tag and communicator and nothing separates
 * them (neither C_msgid nor C_sync holds), so when one of A's messages is
 * late, a rank still receiving in A can match a message another rank already
 * sent in B (or in A of the next iteration). Each payload carries (routine,
 * iteration, sender), so the receiver sees the wrong match.
 * --safe is the safe twin: tags unique per routine and iteration
 * (100 + 2*iteration + routine), same communication shape.
 *
 * Scales/noise: rare in quiet runs (the computation separates A and B);
 * shows at 3-8 ranks under delaying noise (random, system, application).
 * What scalefuzz must report: the run's last line
 *   "case1: WRONG MATCH first_iteration=F wrong_matches=W ..." (a wrong
 * result for the campaign's stdout-must-match check) and a races finding:
 * the receive in routine_a (its MPI_Recv) matched a send from
 * routine B's MPI_Isend, tag 7, MPI_COMM_WORLD, with the noise that exposed
 * it. The safe twin: "case1: OK ...", no race finding, under every noise.
 *
 * Arguments: --iterations N (1000) --messages K (1) --compute-us X (1000)
 * --overhead-us U (0: busy time after every send/receive/wait, the paper's
 * "tool overhead") --seed S (1) --safe (the safe twin; --races, the default, selects the bug). Exit 0 unless the arguments are bad.
 */
#include "ninja_common.h"

enum { kRaceTag = 7 };

static int routine_tag(const struct ninja_options* o, int routine, long it) {
  return o->safe ? (int)(100 + 2 * it + routine) : kRaceTag;
}

/* Where this rank sends its k-th message of (iteration, routine): a random
 * permutation of the ranks (Fisher-Yates from the shared seed). */
static int permuted_destination(const struct ninja_options* o, long it, int routine, long k, int rank, int size,
                                int* perm) {
  for (int i = 0; i < size; ++i) perm[i] = i;
  for (int i = size - 1; i > 0; --i) {
    int j = ninja_pick(o->seed, it, routine, k, i, i + 1);
    int t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  return perm[rank];
}

/* The body of one routine, expanded in routine_a and routine_b so that each
 * routine's MPI calls have their own function name and line in reports. */
#define ROUTINE_BODY(routine) \
  const int tag = routine_tag(o, routine, it); \
  for (long k = 0; k < o->messages; ++k) { \
    int dest = permuted_destination(o, it, routine, k, rank, size, perm); \
    ninja_fill(out + k * kPayloadInts, routine, it, rank); \
    MPI_Isend(out + k * kPayloadInts, kPayloadInts, MPI_INT, dest, tag, MPI_COMM_WORLD, &requests[k]); \
    ninja_busy(o->overhead_us); \
  } \
  NINJA_RECEIVE_ANY_THEN_WAIT("case1", o, tally, tag, o->messages, routine, it, rank, requests);

static void __attribute__((noinline)) routine_a(const struct ninja_options* o, long it, int rank, int size, int* perm,
                       int* out, MPI_Request* requests, struct ninja_tally* tally) {
  const int routine = kRoutineA;
  ROUTINE_BODY(routine);
}

static void __attribute__((noinline)) routine_b(const struct ninja_options* o, long it, int rank, int size, int* perm,
                       int* out, MPI_Request* requests, struct ninja_tally* tally) {
  const int routine = kRoutineB;
  ROUTINE_BODY(routine);
}

/* Unique tags (--safe) must stay below MPI's guaranteed 32768. */
static int check_tags(const struct ninja_options* o, int rank) {
  if (!o->safe || 100 + 2 * o->iterations + 1 <= 32767) return 0;
  if (rank == 0) fprintf(stderr, "case1: --safe needs --iterations <= 16333 (unique tags below 32768)\n");
  return -1;
}

static void iteration(const struct ninja_options* o, long it, int rank, int size, struct ninja_buffers* b,
                      struct ninja_tally* tally) {
  routine_a(o, it, rank, size, b->per_rank, b->out, b->requests, tally);
  ninja_busy(o->compute_us); /* Routine X */
  routine_b(o, it, rank, size, b->per_rank, b->out, b->requests, tally);
}

int main(int argc, char** argv) {
  const struct ninja_options defaults = {.iterations = 1000, .messages = 1, .compute_us = 1000, .seed = 1};
  return ninja_main(argc, argv, "case1", defaults, check_tags, iteration);
}
