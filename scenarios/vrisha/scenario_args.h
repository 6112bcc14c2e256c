/* Positive integer options ("--name value") of the Vrisha scenarios. */
#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value after `name` in argv, `fallback` when absent; a value that is
   not a positive integer ends the program with exit code 2. */
static inline long scenario_arg(int argc, char** argv, const char* name, long fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (strcmp(argv[i], name) == 0) {
      char* end = NULL;
      const long v = strtol(argv[i + 1], &end, 10);
      if (!end || *end || v <= 0) {
        fprintf(stderr, "%s: bad value '%s' for %s\n", argv[0], argv[i + 1], name);
        exit(2);
      }
      return v;
    }
  return fallback;
}
