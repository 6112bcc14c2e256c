/* Tiny "--name value" argument reader shared by the spine, MPI-PD and DMTracker scenarios.
 * Unknown or malformed arguments abort with a message naming them, so a
 * campaign typo shows up as a failed run with a readable stderr. */
#ifndef SCALEFUZZ_SCENARIOS_SPINE_COMMON_ARGS_H
#define SCALEFUZZ_SCENARIOS_SPINE_COMMON_ARGS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct int_option {
  const char* name; /* e.g. "--iterations" */
  long* value;
  long min;
};

/* Parses argv against the options; returns 0 on success, prints the problem
 * to stderr and returns -1 otherwise. */
static int parse_int_options(int argc, char** argv, struct int_option* options, int count) {
  for (int i = 1; i < argc; ++i) {
    int found = 0;
    for (int k = 0; k < count; ++k) {
      if (strcmp(argv[i], options[k].name) != 0) continue;
      found = 1;
      if (i + 1 >= argc) {
        fprintf(stderr, "%s: %s needs a value\n", argv[0], argv[i]);
        return -1;
      }
      char* end = NULL;
      errno = 0;
      long v = strtol(argv[i + 1], &end, 10);
      if (errno != 0 || end == argv[i + 1] || *end != '\0' || v < options[k].min) {
        fprintf(stderr, "%s: %s wants an integer >= %ld, got '%s'\n", argv[0], argv[i],
                options[k].min, argv[i + 1]);
        return -1;
      }
      *options[k].value = v;
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

#endif
