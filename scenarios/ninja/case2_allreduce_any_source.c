/* ninja_case2 — NINJA case 2 (Sato et al., PPoPP'17, Figures 9 and 10):
 * sends to random destinations, an MPI_Allreduce of the per-destination
 * counts, then MPI_ANY_SOURCE receives.
 *
 * Every iteration runs Routine A, Routine X, Routine B. In A and B each rank
 * sends --messages messages (MPI_Isend) to destinations it draws at random
 * (never itself), fills counts[dest], MPI_Allreduce(SUM)s the counts to learn
 * how many messages it will get, receives them with MPI_ANY_SOURCE and waits
 * for its sends. Routine X is --compute-us of busy computation (default 0:
 * "Routine X does nothing", Figure 12).
 *
 * The bug: A and B share tag and communicator, and the Allreduce is not a
 * C_sync point (A's messages may still be in flight), so a late A message
 * lets a rank that is still receiving in A match a message of B. The payload
 * (routine, iteration, sender) shows the wrong match.
 * --safe is the safe twin: A uses tag 11 and B tag 12 (unique matching ids),
 * same communication shape; the Allreduce of the next routine separates
 * iterations.
 *
 * Scales/noise: shows at 3-8 ranks under delaying noise; --overhead-us 10
 * (the paper's 10 us "tool overhead" after every send, receive and wait)
 * hides it from quiet and system-centric runs, not from application-centric
 * noise (paper 6.2.1).
 * What scalefuzz must report: "case2: WRONG MATCH first_iteration=F ..." as
 * the last line (wrong result for the stdout-must-match check) and a races
 * finding: routine A's MPI_Recv matched routine B's MPI_Isend, tag 11,
 * MPI_COMM_WORLD, the ranks, the noise. The safe twin: "case2: OK ...", no
 * race finding, under every noise.
 *
 * Arguments: --iterations N (1000) --messages K (2) --compute-us X (0)
 * --overhead-us U (0) --seed S (1) --safe (the safe twin; --races, the default, selects the bug).
 */
#include "ninja_common.h"

enum { kTagA = 11, kTagB = 12 };

/* The body of one routine, expanded in routine_a and routine_b so that each
 * routine's MPI calls have their own function name and line in reports. */
#define ROUTINE_BODY(routine) \
  const int tag = (o->safe && routine == kRoutineB) ? kTagB : kTagA; \
  for (int i = 0; i < size; ++i) counts[i] = 0; \
  for (long k = 0; k < o->messages; ++k) { \
    int dest = size == 1 ? 0 : (rank + 1 + ninja_pick(o->seed, rank, it, routine, k, size - 1)) % size; \
    ++counts[dest]; \
    ninja_fill(out + k * kPayloadInts, routine, it, rank); \
    MPI_Isend(out + k * kPayloadInts, kPayloadInts, MPI_INT, dest, tag, MPI_COMM_WORLD, &requests[k]); \
    ninja_busy(o->overhead_us); \
  } \
  MPI_Allreduce(counts, totals, size, MPI_INT, MPI_SUM, MPI_COMM_WORLD); \
  NINJA_RECEIVE_ANY_THEN_WAIT("case2", o, tally, tag, totals[rank], routine, it, rank, requests);

static void __attribute__((noinline)) routine_a(const struct ninja_options* o, long it, int rank, int size, int* counts,
                       int* totals, int* out, MPI_Request* requests, struct ninja_tally* tally) {
  const int routine = kRoutineA;
  ROUTINE_BODY(routine);
}

static void __attribute__((noinline)) routine_b(const struct ninja_options* o, long it, int rank, int size, int* counts,
                       int* totals, int* out, MPI_Request* requests, struct ninja_tally* tally) {
  const int routine = kRoutineB;
  ROUTINE_BODY(routine);
}

static void iteration(const struct ninja_options* o, long it, int rank, int size, struct ninja_buffers* b,
                      struct ninja_tally* tally) {
  routine_a(o, it, rank, size, b->per_rank, b->totals, b->out, b->requests, tally);
  ninja_busy(o->compute_us); /* Routine X */
  routine_b(o, it, rank, size, b->per_rank, b->totals, b->out, b->requests, tally);
}

int main(int argc, char** argv) {
  const struct ninja_options defaults = {.iterations = 1000, .messages = 2, .seed = 1};
  return ninja_main(argc, argv, "case2", defaults, NULL, iteration);
}
