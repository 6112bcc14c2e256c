/* "--name value" integer arguments for the MPI-PD scenarios. A malformed or
 * unknown argument prints a message naming it and makes the caller exit 2, so
 * a campaign typo is a failed run with a readable stderr, never a silent
 * default. */
#ifndef SCALEFUZZ_SCENARIOS_MPIPD_SCENARIO_ARGS_H
#define SCALEFUZZ_SCENARIOS_MPIPD_SCENARIO_ARGS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct scenario_option {
  const char* name; /* "--rounds" */
  long* value;
  long min;
};

static int scenario_parse(int argc, char** argv, struct scenario_option* opts, int n) {
  for (int i = 1; i < argc; i += 2) {
    int k = 0;
    while (k < n && strcmp(argv[i], opts[k].name) != 0) ++k;
    if (k == n) {
      fprintf(stderr, "%s: unknown argument '%s'\n", argv[0], argv[i]);
      return -1;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "%s: %s needs a value\n", argv[0], argv[i]);
      return -1;
    }
    char* end = NULL;
    errno = 0;
    long v = strtol(argv[i + 1], &end, 10);
    if (errno != 0 || end == argv[i + 1] || *end != '\0' || v < opts[k].min) {
      fprintf(stderr, "%s: %s wants an integer >= %ld, got '%s'\n", argv[0], argv[i], opts[k].min, argv[i + 1]);
      return -1;
    }
    *opts[k].value = v;
  }
  return 0;
}

#endif
