/* poll_hang — a halo exchange that polls, with a tag mismatch (Kripke-like).
 *
 * Every iteration each rank posts an MPI_Irecv from its left neighbour and an
 * MPI_Isend to its right one, then overlaps "compute" with polling: it calls
 * MPI_Test on the receive and MPI_Iprobe for a control message (tag 99) that
 * a real code would use for early termination, until the receive completes.
 * The bug (with --bug-iteration K >= 0): in iteration K the last rank sends
 * with tag + 1, so rank 0's receive never matches. Rank 0 polls forever; the
 * other ranks complete iteration K (their messages arrive), post iteration
 * K + 1 and then poll forever too, because rank 0 never sends again. Every
 * rank spins in MPI_Test/MPI_Iprobe until the harness's timeout: the most
 * common real hang, and the one that made the recorder write gigabytes.
 *
 * Arguments: --iterations N (default 50), --bug-iteration K (default 20; -1 =
 * the correct twin, which finishes), --count N ints per message (default 64).
 * What scalefuzz must report: a hang; rank 0's pending receive (tag 20 from
 * the last rank) is the unmatched operation; the other ranks wait on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common_args.h"

enum { kControlTag = 99 };

static double compute(double* field, int count) {
  double s = 0;
  for (int i = 0; i < count; ++i) {
    field[i] = field[i] * 0.5 + 1.0;
    s += field[i];
  }
  return s;
}

/* Polls until the halo receive completes, watching for a control message. */
static void wait_halo_polling(MPI_Request* recv, double* field, int count) {
  int done = 0;
  while (!done) {
    compute(field, count);
    MPI_Test(recv, &done, MPI_STATUS_IGNORE);
    int control = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, kControlTag, MPI_COMM_WORLD, &control, MPI_STATUS_IGNORE);
    if (control) {
      int ignored = 0;
      MPI_Recv(&ignored, 1, MPI_INT, MPI_ANY_SOURCE, kControlTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
}

static void halo_step(int it, long bug_iteration, int* out, int* in, int count, int right, int left,
                      int rank, int size, double* field) {
  MPI_Request recv, send;
  MPI_Irecv(in, count, MPI_INT, left, it, MPI_COMM_WORLD, &recv);
  int tag = (rank == size - 1 && it == bug_iteration) ? it + 1 : it; /* the bug */
  MPI_Isend(out, count, MPI_INT, right, tag, MPI_COMM_WORLD, &send);
  wait_halo_polling(&recv, field, count);
  MPI_Wait(&send, MPI_STATUS_IGNORE);
}

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  scenario_init(&argc, &argv, &rank, &size);
  long iterations = 50, bug_iteration = 20, count = 64;
  struct int_option options[] = {
      {"--iterations", &iterations, 1}, {"--bug-iteration", &bug_iteration, -1}, {"--count", &count, 1}};
  if (parse_int_options(argc, argv, options, 3) != 0) MPI_Abort(MPI_COMM_WORLD, 2);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int* out = calloc((size_t)count, sizeof(int));
  int* in = calloc((size_t)count, sizeof(int));
  double* field = calloc((size_t)count, sizeof(double));
  for (long it = 0; it < iterations; ++it) halo_step((int)it, bug_iteration, out, in, (int)count, right, left, rank, size, field);
  double local = compute(field, (int)count), total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("poll_hang: %ld iterations done\n", iterations);
  free(out);
  free(in);
  free(field);
  MPI_Finalize();
  return 0;
}
