/* Shared pieces of the NINJA race scenarios (scenarios/ninja/): argument
 * parsing, a seeded random stream every rank can reproduce, busy "compute",
 * the optional per-call "tool overhead" of the paper's section 6.2.1, and the
 * message payload each receiver checks.
 *
 * A payload is four ints: magic, routine (0 = A, 1 = B), iteration, sender.
 * A receive that gets a payload of another routine or iteration is a wrong
 * match: the scenario counts it, and the program's last line says so. */
#ifndef SCALEFUZZ_SCENARIOS_NINJA_COMMON_H
#define SCALEFUZZ_SCENARIOS_NINJA_COMMON_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../spine/common_args.h"

enum { kPayloadInts = 4, kPayloadMagic = 0x4e494e4a /* "NINJ" */ };
enum { kRoutineA = 0, kRoutineB = 1 };

struct ninja_options {
  long iterations;
  long messages;     /* sends per rank per routine */
  long compute_us;   /* Routine X: busy computation between A and B */
  long overhead_us;  /* busy time after every send, receive and completion call */
  long seed;         /* shared by all ranks: the random destinations (64-bit values folded) */
  long x_rounds;     /* case 3: ring exchanges inside Routine X */
  int safe;          /* --safe: the safe twin (unique matching ids) */
};

/* "--name value" integers and the "--safe" switch; returns 0 or prints the
 * problem to stderr and returns -1. */
static int ninja_parse(int argc, char** argv, struct ninja_options* o) {
  const struct int_option known[] = {{"--iterations", &o->iterations, 1}, {"--messages", &o->messages, 1},
                                     {"--compute-us", &o->compute_us, 0}, {"--overhead-us", &o->overhead_us, 0},
                                     {"--x-rounds", &o->x_rounds, 0}};
  const struct seed_option seed[] = {{"--seed", &o->seed}};
  /* --races: the buggy variant (the default) */
  const struct switch_option switches[] = {{"--safe", &o->safe, 1}, {"--races", &o->safe, 0}};
  return parse_options(argc, argv, known, 5, switches, 2, seed, 1);
}

/* The buffers the routines reuse every iteration. */
struct ninja_buffers {
  int* per_rank;         /* one int per rank: case 1's permutation, the send counts of cases 2 and 3 */
  int* totals;           /* cases 2 and 3: the messages each rank receives (MPI_Allreduce of the counts) */
  int* out;              /* --messages payloads */
  MPI_Request* requests; /* one per payload */
};

static struct ninja_buffers ninja_alloc(const struct ninja_options* o, int size) {
  struct ninja_buffers b;
  b.per_rank = malloc(sizeof(int) * (size_t)size);
  b.totals = malloc(sizeof(int) * (size_t)size);
  b.out = malloc(sizeof(int) * kPayloadInts * (size_t)o->messages);
  b.requests = malloc(sizeof(MPI_Request) * (size_t)o->messages);
  return b;
}

static void ninja_free(struct ninja_buffers* b) {
  free(b->per_rank);
  free(b->totals);
  free(b->out);
  free(b->requests);
}

static uint64_t ninja_mix(uint64_t x) { /* splitmix64 */
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* A random number in [0, n) determined by (seed, a, b, c, d) alone. */
static int ninja_pick(long seed, long a, long b, long c, long d, int n) {
  uint64_t h = ninja_mix((uint64_t)seed);
  h = ninja_mix(h ^ (uint64_t)a);
  h = ninja_mix(h ^ (uint64_t)b);
  h = ninja_mix(h ^ (uint64_t)c);
  h = ninja_mix(h ^ (uint64_t)d);
  return (int)(h % (uint64_t)n);
}

static double ninja_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Busy computation for `us` microseconds (Routine X, tool overhead). */
static void ninja_busy(long us) {
  if (us <= 0) return;
  const double end = ninja_now_us() + (double)us;
  volatile double sink = 0;
  while (ninja_now_us() < end) sink += 1.0;
}

static void ninja_fill(int* payload, int routine, long iteration, int sender) {
  payload[0] = kPayloadMagic;
  payload[1] = routine;
  payload[2] = (int)iteration;
  payload[3] = sender;
}

/* Per-rank tally of wrong matches. */
struct ninja_tally {
  long wrong;
  long first_iteration; /* -1: none */
};

/* Checks a received payload against the routine and iteration that posted
 * the receive; reports the first wrong match of this rank on stderr. */
static void ninja_check(const char* scenario, struct ninja_tally* t, const int* payload, int routine,
                        long iteration, int rank) {
  if (payload[0] == kPayloadMagic && payload[1] == routine && payload[2] == (int)iteration) return;
  ++t->wrong;
  if (t->first_iteration >= 0) return;
  t->first_iteration = iteration;
  fprintf(stderr, "%s: WRONG MATCH at iteration %ld on rank %d: the receive of routine %c got routine %c of "
          "iteration %d from rank %d\n", scenario, iteration, rank, routine == kRoutineA ? 'A' : 'B',
          payload[1] == kRoutineA ? 'A' : 'B', payload[2], payload[3]);
  fflush(stderr);
}

/* Receives `receives` payloads from MPI_ANY_SOURCE with `tag`, checking each
 * against (routine, it), then waits for this routine's --messages sends. A
 * macro, not a function: expanded inside routine_a/routine_b, the MPI calls
 * keep that routine's name and line in reports. */
#define NINJA_RECEIVE_ANY_THEN_WAIT(scenario, o, tally, tag, receives, routine, it, rank, requests) \
  for (long k = 0; k < (receives); ++k) { \
    int in[kPayloadInts]; \
    MPI_Recv(in, kPayloadInts, MPI_INT, MPI_ANY_SOURCE, (tag), MPI_COMM_WORLD, MPI_STATUS_IGNORE); \
    ninja_busy((o)->overhead_us); \
    ninja_check((scenario), (tally), in, (routine), (it), (rank)); \
  } \
  for (long k = 0; k < (o)->messages; ++k) MPI_Wait(&(requests)[k], MPI_STATUS_IGNORE); \
  ninja_busy((o)->overhead_us)

/* Sums the tallies and prints rank 0's verdict line:
 *   "<scenario>: OK ranks=N iterations=I us_per_iteration=T"
 *   "<scenario>: WRONG MATCH first_iteration=F wrong_matches=W ranks=N ..."
 * Returns 0 when no rank saw a wrong match. */
static int ninja_finish(const char* scenario, const struct ninja_tally* t, long iterations, double loop_us, int rank,
                        int size) {
  long wrong = 0, first = 0;
  long mine_first = t->first_iteration >= 0 ? t->first_iteration : iterations;
  double max_us = 0;
  MPI_Allreduce(&t->wrong, &wrong, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&mine_first, &first, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&loop_us, &max_us, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    if (wrong == 0)
      printf("%s: OK ranks=%d iterations=%ld us_per_iteration=%.2f\n", scenario, size, iterations,
             max_us / (double)iterations);
    else
      printf("%s: WRONG MATCH first_iteration=%ld wrong_matches=%ld ranks=%d iterations=%ld us_per_iteration=%.2f\n",
             scenario, first, wrong, size, iterations, max_us / (double)iterations);
    fflush(stdout);
  }
  return wrong == 0 ? 0 : 1;
}

/* One iteration of a case: its routines in order. */
typedef void (*ninja_iteration)(const struct ninja_options* o, long it, int rank, int size, struct ninja_buffers* b,
                                struct ninja_tally* tally);
/* A case's own check of its options: 0 when they are fine (rank 0 prints why not). */
typedef int (*ninja_options_check)(const struct ninja_options* o, int rank);

/* A case's whole main(): MPI start, the options (`defaults` overridden by
 * argv; bad ones abort with code 2), the buffers, `iteration` --iterations
 * times from a common start, then the verdict line of ninja_finish. */
static int ninja_main(int argc, char** argv, const char* scenario, struct ninja_options defaults,
                      ninja_options_check check, ninja_iteration iteration) {
  struct ninja_options o = defaults;
  int rank = 0, size = 0;
  scenario_init(&argc, &argv, &rank, &size);
  if (ninja_parse(argc, argv, &o) != 0 || (check != NULL && check(&o, rank) != 0)) MPI_Abort(MPI_COMM_WORLD, 2);
  struct ninja_buffers b = ninja_alloc(&o, size);
  struct ninja_tally tally = {0, -1};

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = ninja_now_us();
  for (long it = 0; it < o.iterations; ++it) iteration(&o, it, rank, size, &b, &tally);
  const double loop_us = ninja_now_us() - start;
  ninja_finish(scenario, &tally, o.iterations, loop_us, rank, size);
  ninja_free(&b);
  MPI_Finalize();
  return 0;
}

#endif
