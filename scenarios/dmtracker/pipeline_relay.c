/* DMTracker case 1 (the paper's Figure 2 / §5.1): a pipelined broadcast of
 * panels, HPL's "increasing ring". Rank 0 produces one panel per step; every
 * rank receives it into `panel` and forwards it to the next rank from there.
 *
 * Bug (built unless SF_CLEAN): ranks keep a look-ahead copy of an earlier
 * panel in `lookahead`. On a rare path (about 3 % of the (step, rank) pairs:
 * the panel's row count crosses a threshold) the forward takes the look-ahead
 * pointer instead of `panel`, so the next ranks silently get stale data. The
 * program never hangs, crashes or fails its own check: the only symptom is a
 * chain of data movements that breaks where the wrong buffer is sent.
 * Expected (dmtracker): an FC-invariant violation, ranked first, with a
 * context match, at the forwarding MPI_Send of forward_panel().
 * Clean twin (pipeline_relay_clean): always forwards `panel`; no violation.
 *
 *   pipeline_relay [--steps N] [--panel-doubles D] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../spine/common_args.h"

enum { TAG_PANEL = 7 };

static double* alloc_panel(long n) { return (double*)malloc((size_t)n * sizeof(double)); }
static double* alloc_lookahead(long n) { return (double*)calloc((size_t)n, sizeof(double)); }

/* Rows of the panel at a step: varies the way a blocked factorization does. */
static long panel_rows(long step, int rank) { return 40 + (step * 7 + rank) % 31; }

static void forward_panel(const double* panel, const double* lookahead, long n, long step, int rank,
                          int next) {
  const double* out = panel;
#ifndef SF_CLEAN
  if (panel_rows(step, rank) == 40) out = lookahead; /* rare path: wrong pointer */
#else
  (void)lookahead;
  (void)step;
  (void)rank;
#endif
  MPI_Send(out, (int)n, MPI_DOUBLE, next, TAG_PANEL, MPI_COMM_WORLD);
}

int main(int argc, char** argv) {
  long steps = 100, n = 256;
  struct int_option opts[] = {{"--steps", &steps, 1}, {"--panel-doubles", &n, 1}};
  if (parse_int_options(argc, argv, opts, 2) != 0) return 2;
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double* source = alloc_panel(n);
  double* panel = alloc_panel(n);
  double* lookahead = alloc_lookahead(n);
  double checksum = 0;
  for (long step = 0; step < steps; ++step) {
    if (rank == 0) {
      for (long i = 0; i < n; ++i) source[i] = (double)(step * n + i);
      MPI_Send(source, (int)n, MPI_DOUBLE, 1, TAG_PANEL, MPI_COMM_WORLD);
    } else {
      MPI_Recv(panel, (int)n, MPI_DOUBLE, rank - 1, TAG_PANEL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (rank + 1 < size) forward_panel(panel, lookahead, n, step, rank, rank + 1);
      for (long i = 0; i < n; ++i) checksum += panel[i];
      if (step % 8 == 0) memcpy(lookahead, panel, (size_t)n * sizeof(double)); /* keep a look-ahead copy */
    }
  }
  double total = 0;
  MPI_Reduce(&checksum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("pipeline: %d ranks, %ld steps, checksum=%.0f\n", size, steps, total);
  free(source);
  free(panel);
  free(lookahead);
  MPI_Finalize();
  return 0;
}
