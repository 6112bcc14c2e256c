/* crash_in_compute — one rank segfaults in a computation, between MPI calls.
 *
 * Every iteration each rank updates a local array (compute_local_update) and
 * then joins an MPI_Allreduce of the local sum. At iteration
 * --crash-iteration (default 3) the rank given by --crash-rank (default 1)
 * writes through a null pointer inside compute_local_update: SIGSEGV while
 * the other ranks wait in the Allreduce.
 *
 * Arguments: --crash-rank R (default 1), --crash-iteration K (default 3),
 * --iterations N (default 20), --count N doubles (default 1024).
 * Scales: crashes at every scale > R; with R >= the number of ranks nobody
 * crashes and the run is clean (ok).
 * What scalefuzz must report: outcome crashed, signal 11 (SIGSEGV), rank R;
 * MPI-PD later: rank R is the faulty process (its trace is truncated after
 * iteration K-1's Allreduce), the others are blocked in MPI_Allreduce.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common_args.h"

/* volatile, so the compiler cannot prove it null and turn the store into a
 * trap instruction (SIGILL): the crash must be a real invalid access. */
static double* volatile corrupted_pointer = NULL;

static double compute_local_update(double* values, long count, long iteration, int crash_now) {
  double* target = crash_now ? corrupted_pointer : values;
  double sum = 0;
  for (long i = 0; i < count; ++i) {
    target[i] = 0.5 * values[i] + (double)(iteration + i % 7);
    sum += target[i];
  }
  return sum;
}

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  scenario_init(&argc, &argv, &rank, &size);

  long crash_rank = 1, crash_iteration = 3, iterations = 20, count = 1024;
  struct int_option options[] = {{"--crash-rank", &crash_rank, 0},
                                 {"--crash-iteration", &crash_iteration, 0},
                                 {"--iterations", &iterations, 1},
                                 {"--count", &count, 1}};
  if (parse_int_options(argc, argv, options, 4) != 0) MPI_Abort(MPI_COMM_WORLD, 2);

  double* values = calloc((size_t)count, sizeof(double));
  double total = 0;
  for (long it = 0; it < iterations; ++it) {
    int crash_now = (rank == crash_rank && it == crash_iteration);
    if (crash_now) {
      fprintf(stderr, "crash_in_compute: rank %d about to crash at iteration %ld\n", rank, it);
      fflush(stderr);
    }
    double local = compute_local_update(values, count, it, crash_now);
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) printf("crash_in_compute: finished %ld iterations, sum=%g\n", iterations, total);
  free(values);
  MPI_Finalize();
  return 0;
}
