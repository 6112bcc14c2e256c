/* Tiny "--name value" argument reader shared by the spine, MPI-PD, DMTracker and NINJA scenarios,
 * and the MPI start their main()s share.
 * Unknown or malformed arguments abort with a message naming them, so a
 * campaign typo shows up as a failed run with a readable stderr. */
#ifndef SCALEFUZZ_SCENARIOS_SPINE_COMMON_ARGS_H
#define SCALEFUZZ_SCENARIOS_SPINE_COMMON_ARGS_H

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct int_option {
  const char* name; /* e.g. "--iterations" */
  long* value;
  long min;
};

/* "--seed S": any unsigned 64-bit value (a campaign's {seed}), folded into a
 * non-negative long (values above LONG_MAX map to -(v + 1)). */
struct seed_option {
  const char* name;
  long* value;
};

/* A flag without a value: "--safe" stores `set` into *value. */
struct switch_option {
  const char* name;
  int* value;
  int set;
};

/* Parses argv against the options, switches and seed options; returns 0 on
 * success, prints the problem to stderr and returns -1 otherwise. */
static inline int parse_options(int argc, char** argv, const struct int_option* options, int count,
                                const struct switch_option* switches, int nswitches,
                                const struct seed_option* seeds, int nseeds) {
  for (int i = 1; i < argc; ++i) {
    int found = 0;
    for (int k = 0; k < nswitches && !found; ++k) {
      if (strcmp(argv[i], switches[k].name) != 0) continue;
      found = 1;
      *switches[k].value = switches[k].set;
    }
    if (found) continue;
    for (int k = 0; k < count + nseeds; ++k) {
      const int seed = k >= count;
      const char* name = seed ? seeds[k - count].name : options[k].name;
      const long min = seed ? 0 : options[k].min;
      if (strcmp(argv[i], name) != 0) continue;
      found = 1;
      if (i + 1 >= argc) {
        fprintf(stderr, "%s: %s needs a value\n", argv[0], argv[i]);
        return -1;
      }
      char* end = NULL;
      errno = 0;
      long v = seed ? (long)strtoull(argv[i + 1], &end, 10) : strtol(argv[i + 1], &end, 10);
      if (seed && v < 0) v = -(v + 1);
      if (errno != 0 || end == argv[i + 1] || *end != '\0' || v < min) {
        fprintf(stderr, "%s: %s wants an integer >= %ld, got '%s'\n", argv[0], argv[i], min, argv[i + 1]);
        return -1;
      }
      *(seed ? seeds[k - count].value : options[k].value) = v;
      ++i;
      break;
    }
    if (!found) {
      fprintf(stderr, "%s: unknown argument '%s'\n", argv[0], argv[i]);
      return -1;
    }
  }
  return 0;
}

static inline int parse_int_options(int argc, char** argv, const struct int_option* options, int count) {
  return parse_options(argc, argv, options, count, NULL, 0, NULL, 0);
}

/* MPI_Init, then this process's rank and the world's size: how every scenario's main() starts. */
static inline void scenario_init(int* argc, char*** argv, int* rank, int* size) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
}

#endif
