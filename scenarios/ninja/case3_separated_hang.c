/* ninja_case3 — NINJA case 3 (Sato et al., PPoPP'17, Figure 9; the Hypre
 * 2.10.1 ParaSails bug): two unsafe routines separated by other
 * communication and computation; a wrong match ends in a hang.
 *
 * Every iteration:
 *   Routine A  each rank MPI_Isends --messages requests to random other
 *              ranks (tag 21), MPI_Allreduce(SUM)s the per-destination
 *              counts (a global synchronization, but A's messages may still
 *              be in flight: C_sync does not hold), receives its count with
 *              MPI_ANY_SOURCE, waits for its sends.
 *   Routine X  --x-rounds ring exchanges (send right, receive left, tag 22)
 *              and --compute-us of computation. No global synchronization.
 *   Routine B  each rank MPI_Isends one message to its right neighbour with
 *              tag 21 and receives one from its left neighbour (a named
 *              source), then waits.
 *   An MPI_Allreduce of a checksum ends the iteration.
 *
 * The bug: A and B share tag 21. If one of A's messages to rank P is late
 * enough, P's ANY_SOURCE receive in A matches the B message of its left
 * neighbour Q (which is done with A and X). P's B receive from Q then has
 * nothing left to match, Q waits in the closing Allreduce: the job hangs.
 * The rank that got the wrong payload prints
 *   "case3: WRONG MATCH at iteration N on rank P: ..." on stderr first.
 * --safe is the safe twin: routine B uses tag 23 (unique matching ids),
 * same communication shape.
 *
 * Scales/noise: practically never in quiet runs (X separates A and B);
 * application-centric noise delays A's send set past B and exposes it in the
 * first iterations; system-centric and random noise rarely.
 * What scalefuzz must report: outcome hang (timeout) with the stderr line
 * above; with traces a races finding (routine_a's MPI_Recv matched
 * routine_b's MPI_Isend, tag 21) and pdg/mpipd naming the rank stuck in
 * routine_b's receive. `scalefuzz reproduce --until hang` finds it.
 * The safe twin ends with "case3: OK ..." under every noise.
 *
 * Arguments: --iterations N (100) --messages K (2) --x-rounds R (1)
 * --compute-us X (200) --overhead-us U (0) --seed S (1) --safe (the safe twin; --races, the default, selects the bug).
 */
#include "ninja_common.h"

enum { kTagA = 21, kTagX = 22, kTagSafeB = 23 };

static void __attribute__((noinline)) routine_a(const struct ninja_options* o, long it, int rank, int size,
                                                int* counts, int* totals, int* out, MPI_Request* requests,
                                                struct ninja_tally* tally) {
  for (int i = 0; i < size; ++i) counts[i] = 0;
  for (long k = 0; k < o->messages; ++k) {
    int dest = size == 1 ? 0 : (rank + 1 + ninja_pick(o->seed, rank, it, 3, k, size - 1)) % size;
    ++counts[dest];
    ninja_fill(out + k * kPayloadInts, kRoutineA, it, rank);
    MPI_Isend(out + k * kPayloadInts, kPayloadInts, MPI_INT, dest, kTagA, MPI_COMM_WORLD, &requests[k]);
    ninja_busy(o->overhead_us);
  }
  MPI_Allreduce(counts, totals, size, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  NINJA_RECEIVE_ANY_THEN_WAIT("case3", o, tally, kTagA, totals[rank], kRoutineA, it, rank, requests);
}

static void __attribute__((noinline)) routine_x(const struct ninja_options* o, int rank, int size) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (long r = 0; r < o->x_rounds; ++r) {
    int token = rank, got = -1;
    MPI_Request request;
    MPI_Irecv(&got, 1, MPI_INT, left, kTagX, MPI_COMM_WORLD, &request);
    MPI_Send(&token, 1, MPI_INT, right, kTagX, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  ninja_busy(o->compute_us);
}

static void __attribute__((noinline)) routine_b(const struct ninja_options* o, long it, int rank, int size,
                                                int* out, MPI_Request* requests, struct ninja_tally* tally) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  const int tag = o->safe ? kTagSafeB : kTagA;
  int in[kPayloadInts];
  ninja_fill(out, kRoutineB, it, rank);
  MPI_Isend(out, kPayloadInts, MPI_INT, right, tag, MPI_COMM_WORLD, &requests[0]);
  ninja_busy(o->overhead_us);
  MPI_Recv(in, kPayloadInts, MPI_INT, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  ninja_busy(o->overhead_us);
  ninja_check("case3", tally, in, kRoutineB, it, rank);
  MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
  ninja_busy(o->overhead_us);
}

static void iteration(const struct ninja_options* o, long it, int rank, int size, struct ninja_buffers* b,
                      struct ninja_tally* tally) {
  routine_a(o, it, rank, size, b->per_rank, b->totals, b->out, b->requests, tally);
  routine_x(o, rank, size);
  routine_b(o, it, rank, size, b->out, b->requests, tally);
  long checksum = tally->wrong, total = 0;
  MPI_Allreduce(&checksum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char** argv) {
  const struct ninja_options defaults = {.iterations = 100, .messages = 2, .compute_us = 200, .x_rounds = 1, .seed = 1};
  return ninja_main(argc, argv, "case3", defaults, NULL, iteration);
}
