/* A 1-D domain decomposition with two halo exchanges per step, each posted
 * with MPI_ANY_SOURCE, over a load gradient.
 *
 * The ranks hold consecutive blocks of --cells cells of a line (not
 * periodic: rank 0 and the last rank have one neighbour). Every step has
 * two phases (advance, tag 1; correct, tag 2), each an integer three-point
 * stencil with its own weights (not symmetric: a swapped halo shows). A
 * phase posts the halo receives with MPI_Irecv(MPI_ANY_SOURCE, tag), the
 * left halo on one line and the right halo on another (a rank posts only
 * the ones it has), computes its block's interior, which takes
 * --compute-us plus rank x --skew-us (10 ms; half that in the correcting
 * phase: the cells get denser towards the last rank), sends its edge cells
 * to its neighbours (MPI_Isend) and waits (MPI_Waitall). Each rank checks
 * its block against the serial computation of the whole line after every
 * step, reports a mismatch and goes on from the right values.
 * The left neighbour has less work and the right one waits for a still
 * slower rank, so the left halo arrives first by more than a skew in every
 * quiet run and under noise (µs to 2 ms delays).
 * --races (the default): the first halo to arrive is taken to be the left
 * one. --safe (the correct twin): the same wildcard receives, each halo
 * placed by status.MPI_SOURCE; arrival order does not matter.
 * scalefuzz must report: the default, an Error race (harmful-race) at an
 * interior rank's left-halo receive; --safe at most Info. */
#include "races_common.h"

enum { kMaxCells = 64 };
static const long kPrime = 1000003;
static const long kWeights[2][3] = {{3, 5, 7}, {11, 13, 17}};

/* One phase of the stencil over cells[1..n] with ghosts cells[0] and cells[n + 1]. */
static void stencil(long* cells, int n, int phase) {
  long next[kMaxCells + 2];
  for (int i = 1; i <= n; ++i)
    next[i] = (kWeights[phase][0] * cells[i - 1] + kWeights[phase][1] * cells[i] + kWeights[phase][2] * cells[i + 1]) %
              kPrime;
  memcpy(cells + 1, next + 1, sizeof(long) * (size_t)n);
}

int main(int argc, char** argv) {
  struct race_options o = {.iterations = 4, .steps = 1, .bytes = 8, .compute_us = 1000};
  int rank = 0, size = 1;
  const long cells = race_take_option(&argc, argv, "--cells", 4);
  const long skew_us = race_start_skewed(&argc, &argv, &o, &rank, &size, 10000, 1, "");
  if (cells < 1 || cells * size > kMaxCells) {
    if (rank == 0) fprintf(stderr, "halo_phases: 1 <= --cells, cells x ranks <= %d\n", kMaxCells);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int n = (int)cells, total = n * size;
  const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  long u[kMaxCells + 2] = {0}, all[kMaxCells + 2] = {0}; /* ghosts 0 at the line's ends */
  for (int i = 1; i <= total; ++i) all[i] = (i * 37 + 11) % kPrime;
  memcpy(u + 1, all + 1 + rank * n, sizeof(long) * (size_t)n);
  double t0 = MPI_Wtime();
  for (long step = 0; step < o.iterations; ++step) {
    for (int phase = 0; phase < 2; ++phase) {
      const int tag = 1 + phase;
      long halo[2] = {0, 0};
      MPI_Request req[4];
      MPI_Status st[4];
      int posted = 0;
      if (left != MPI_PROC_NULL) MPI_Irecv(&halo[0], 1, MPI_LONG, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &req[posted++]);
      if (right != MPI_PROC_NULL) MPI_Irecv(&halo[1], 1, MPI_LONG, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &req[posted++]);
      const int receives = posted;
      race_sleep_us((o.compute_us + rank * skew_us) / (phase + 1));
      if (left != MPI_PROC_NULL) MPI_Isend(&u[1], 1, MPI_LONG, left, tag, MPI_COMM_WORLD, &req[posted++]);
      if (right != MPI_PROC_NULL) MPI_Isend(&u[n], 1, MPI_LONG, right, tag, MPI_COMM_WORLD, &req[posted++]);
      MPI_Waitall(posted, req, st);
      /* The racy code takes the first posted receive as the left halo
       * whenever there is a left neighbour; the twin asks who sent it. */
      u[0] = 0;
      u[n + 1] = 0;
      for (int k = 0; k < receives; ++k) {
        const long value = halo[left != MPI_PROC_NULL ? k : 1];
        const int from_left = o.safe ? st[k].MPI_SOURCE == left : (left != MPI_PROC_NULL && k == 0);
        u[from_left ? 0 : n + 1] = value;
      }
      stencil(u, n, phase);
      stencil(all, total, phase);
    }
    if (memcmp(u + 1, all + 1 + rank * n, sizeof(long) * (size_t)n) != 0) {
      race_wrong(&o, rank, step, "a halo was taken from the other neighbour");
      memcpy(u + 1, all + 1 + rank * n, sizeof(long) * (size_t)n);
    }
  }
  race_finish(&o, rank, MPI_Wtime() - t0);
  MPI_Finalize();
  return 0;
}
