/* Shared pieces of the race scenarios in scenarios/races/: "--name value"
 * integer options, a busy "compute" loop, and the wrong-match report.
 *
 * Every program here checks what it received against what it meant to
 * receive (its own ground truth). On a wrong match it prints
 * "wrong match at loop N" on stderr and either calls MPI_Abort(MPI_COMM_WORLD, 0)
 * (--on-wrong abort, the default: the way the textbook program ends) or
 * counts it and goes on (--on-wrong count: "wrong_matches=K first_loop=N"
 * on stdout at the end, exit 0). */
#ifndef SCALEFUZZ_SCENARIOS_RACES_COMMON_H
#define SCALEFUZZ_SCENARIOS_RACES_COMMON_H

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct race_options {
  long iterations;  /* loops */
  long steps;       /* exchanges per loop */
  long bytes;       /* message size, >= 8 */
  long compute_us;  /* busy computation between exchanges */
  long overhead_us; /* busy time after every send, receive and wait (a tool's overhead) */
  long slow_first_us; /* the last rank computes this much longer in loop 0 (a late starter) */
  int safe;         /* --safe: the correct twin */
  int count_wrong;  /* --on-wrong count */
  long print_loops; /* --print-loops 1: rank 0 prints "loop: N" on stderr as each loop starts */
};

static long race_wrong_matches = 0, race_first_wrong_loop = -1;

static int race_parse(int argc, char** argv, struct race_options* o) {
  struct {
    const char* name;
    long* value;
    long min;
  } known[] = {{"--iterations", &o->iterations, 1}, {"--steps", &o->steps, 1}, {"--bytes", &o->bytes, 8},
               {"--compute-us", &o->compute_us, 0}, {"--overhead-us", &o->overhead_us, 0},
               {"--slow-first-us", &o->slow_first_us, 0}, {"--print-loops", &o->print_loops, 0}};
  const int count = (int)(sizeof known / sizeof known[0]);
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--safe") == 0 || strcmp(argv[i], "--races") == 0) {
      o->safe = strcmp(argv[i], "--safe") == 0; /* --races: the racy program (the default) */
      continue;
    }
    if (strcmp(argv[i], "--on-wrong") == 0 && i + 1 < argc &&
        (strcmp(argv[i + 1], "abort") == 0 || strcmp(argv[i + 1], "count") == 0)) {
      o->count_wrong = strcmp(argv[++i], "count") == 0;
      continue;
    }
    int found = 0;
    for (int k = 0; k < count && !found; ++k) {
      if (strcmp(argv[i], known[k].name) != 0) continue;
      found = 1;
      char* end = NULL;
      errno = 0;
      long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
      if (i + 1 >= argc || errno != 0 || end == argv[i + 1] || *end != '\0' || v < known[k].min) {
        fprintf(stderr, "%s: %s needs an integer >= %ld\n", argv[0], argv[i], known[k].min);
        return -1;
      }
      *known[k].value = v;
      ++i;
    }
    if (!found) {
      fprintf(stderr, "%s: unknown argument '%s' (--iterations N --steps N --bytes N --compute-us N "
                      "--overhead-us N --slow-first-us N --print-loops 0|1 --on-wrong abort|count --races|--safe)\n", argv[0], argv[i]);
      return -1;
    }
  }
  return 0;
}

/* A program's own "--name N" option (N >= 0), taken out of argv before
 * race_parse (which refuses options it does not know); `fallback` when
 * absent, -1 when malformed (the caller aborts after MPI_Init). */
static inline long race_take_option(int* argc, char** argv, const char* name, long fallback) {
  long value = fallback;
  for (int i = 1; i < *argc; ++i) {
    if (strcmp(argv[i], name) != 0) continue;
    char* end = NULL;
    long v = i + 1 < *argc ? strtol(argv[i + 1], &end, 10) : -1;
    if (i + 1 >= *argc || end == argv[i + 1] || *end != '\0' || v < 0) {
      fprintf(stderr, "%s: %s needs an integer >= 0\n", argv[0], name);
      return -1;
    }
    for (int j = i; j + 2 < *argc; ++j) argv[j] = argv[j + 2];
    *argc -= 2;
    --i;
    value = v;
  }
  return value;
}

/* MPI_Init, this rank and the world's size, then the options (a bad one
 * aborts with code 2): how every main() here starts. */
static void race_start(int* argc, char*** argv, struct race_options* o, int* rank, int* size) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  if (race_parse(*argc, *argv, o) != 0) MPI_Abort(MPI_COMM_WORLD, 2);
}

/* race_start for the programs with a --skew-us option (their compute
 * imbalance, default_skew_us when absent) and at least min_ranks ranks
 * (`need` says why on rank 0); returns the skew. */
static inline long race_start_skewed(int* argc, char*** argv, struct race_options* o, int* rank, int* size,
                                     long default_skew_us, int min_ranks, const char* need) {
  const long skew_us = race_take_option(argc, *argv, "--skew-us", default_skew_us);
  race_start(argc, argv, o, rank, size);
  if (skew_us < 0) MPI_Abort(MPI_COMM_WORLD, 2);
  if (*size < min_ranks) {
    if (*rank == 0) fprintf(stderr, "%s\n", need);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return skew_us;
}

static void race_busy_us(long us) {
  if (us <= 0) return;
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do clock_gettime(CLOCK_MONOTONIC, &t);
  while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000L < us);
}

/* The textbook program's progress line: rank 0 writes the loop number on
 * (unbuffered) stderr as each loop starts; the reference's run script
 * (PRUNERS/NINJA test/run_sc16_ex3.sh) reads the last one to learn how far a
 * run got. */
static inline void race_loop_line(const struct race_options* o, int rank, long loop) {
  if (o->print_loops && rank == 0) fprintf(stderr, "rank 0: loop: %ld\n", loop);
}

/* Sleep (not spin) for us microseconds: the textbook program's interval
 * between patterns (usleep in the reference NINJA test
 * ninja_test_matching_race.c; a spinning rank on an oversubscribed core is
 * descheduled mid-burst, a sleeping one gives the core away). */
static inline void race_sleep_us(long us) {
  if (us <= 0) return;
  struct timespec d = {us / 1000000L, (us % 1000000L) * 1000L};
  while (nanosleep(&d, &d) != 0 && errno == EINTR) {
  }
}

/* The program's own check failed: say where, then abort with code 0 (as the
 * textbook program does) or count it. */
static void race_wrong(const struct race_options* o, int rank, long loop, const char* what) {
  fprintf(stderr, "rank %d: wrong match at loop %ld: %s\n", rank, loop, what);
  fflush(stderr);
  if (!o->count_wrong) MPI_Abort(MPI_COMM_WORLD, 0);
  if (race_first_wrong_loop < 0 || loop < race_first_wrong_loop) race_first_wrong_loop = loop;
  ++race_wrong_matches;
}

/* MPI_Waitall, then the tool overhead the program stands in for (--overhead-us). */
static inline void race_waitall(const struct race_options* o, int n, MPI_Request* reqs, MPI_Status* statuses) {
  MPI_Waitall(n, reqs, statuses);
  race_busy_us(o->overhead_us);
}

/* The check of one exchange: every one of the `count` messages received in
 * `in` (`ints` ints each: stamp, sender) must carry `stamp`; `what` names
 * the exchange ("step", "pattern") in the report. */
static inline void race_check_stamps(const struct race_options* o, int rank, long loop, long step, const int* in,
                                     int count, long ints, int stamp, const char* what) {
  for (int k = 0; k < count; ++k) {
    if (in[k * ints] == stamp) continue;
    char text[128];
    snprintf(text, sizeof text, "a receive of %s %ld took rank %d's message of %s %d", what, step, in[k * ints + 1],
             what, in[k * ints] % (int)o->steps);
    race_wrong(o, rank, loop, text);
  }
}

/* Rank 0 prints the totals (count mode) and the time per loop. */
static void race_finish(const struct race_options* o, int rank, double seconds) {
  long total = 0, first = race_first_wrong_loop < 0 ? o->iterations : race_first_wrong_loop, gfirst = 0;
  MPI_Reduce(&race_wrong_matches, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&first, &gfirst, 1, MPI_LONG, MPI_MIN, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    if (total > 0) printf("wrong_matches=%ld first_loop=%ld\n", total, gfirst);
    else printf("wrong_matches=0\n");
    printf("us_per_iteration=%.1f\n", seconds * 1e6 / (double)o->iterations);
  }
}

#endif
