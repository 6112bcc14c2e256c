/*
 * dense_panel_bcast — a CORRECT dense linear-algebra code whose library
 * changes its communication with the rank count (issue 37).
 *
 * A panel-by-panel factorization in the style of ScaLAPACK's right-looking
 * routines: the matrix's column panels are distributed block-cyclically
 * over the ranks (panel k on rank k mod p); for every panel its owner
 * factors it and broadcasts it through a library call (sf_pbcast in
 * libsf_pblas.so, like BLACS' broadcast under pdsytd2_), and every rank
 * updates its trailing panels. The library broadcasts over a binomial tree
 * up to 5 ranks and over a ring above, by design. A residual norm
 * (MPI_Allreduce) and a checksum gathered on rank 0 end every sweep.
 *
 * NO BUG: results are identical at every scale. With --panels a multiple of
 * the rank count (the default 120 is one for 2..6, 8, 10, 12 ranks), every
 * rank is the root, and every other place in the tree or ring, equally
 * often, so the bytes a rank moves through the library are the same for
 * both topologies; only the call stacks inside the library differ.
 *
 * Scales: train 2..5 ranks (binomial), test 6 and 8 ranks (ring).
 * Expected report (configs/scenarios/vrisha_dense_panel_bcast.yaml, detector
 * kcca, library_sites: entry): no kcca error or warning at 6 or 8 ranks; a
 * scale-new-library-sites info per test run naming libsf_pblas.so and the
 * application's call into it (factor_sweep). With kcca.library_sites: stack
 * (the paper's keying), both test runs are flagged scale-anomaly.
 */
#include <mpi.h>
#include "scenario_args.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf_pblas.h"

#define NOINLINE __attribute__((noinline))

static int g_rank, g_size;

/* The owner's panel factorization (a stand-in: scale the panel). */
static NOINLINE void factor_panel(double* panel, int n, int k) {
  for (int i = 0; i < n; ++i) panel[i] = 1.0 + (double)((k * 31 + i) % 97) / 97.0;
}

/* Every rank's trailing update with the broadcast panel. */
static NOINLINE double update_trailing(const double* panel, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += panel[i];
  return s;
}

/* One sweep over the panels; returns this rank's share of the checksum. */
static NOINLINE double factor_sweep(double* panel, int nb, int panels) {
  double local = 0;
  for (int k = 0; k < panels; ++k) {
    const int owner = k % g_size;
    if (g_rank == owner) factor_panel(panel, nb * nb, k);
    sf_pbcast(panel, nb * nb, owner, MPI_COMM_WORLD); /* the library call */
    local += update_trailing(panel, nb * nb) / (double)g_size;
  }
  return local;
}

static NOINLINE double residual_norm(double local) {
  double global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return global;
}

static NOINLINE void gather_checksums(double value, double* all) {
  MPI_Gather(&value, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  const int nb = (int)scenario_arg(argc, argv, "--nb", 16);
  const int panels = (int)scenario_arg(argc, argv, "--panels", 120);
  const int sweeps = (int)scenario_arg(argc, argv, "--sweeps", 2);
  double* panel = malloc((size_t)nb * nb * sizeof *panel);
  double* all = malloc((size_t)g_size * sizeof *all);
  if (!panel || !all) MPI_Abort(MPI_COMM_WORLD, 1);
  double norm = 0;
  for (int s = 0; s < sweeps; ++s) {
    norm = residual_norm(factor_sweep(panel, nb, panels));
    gather_checksums(norm, all);
  }
  if (g_rank == 0)
    printf("dense_panel_bcast: %d ranks, %d panels of %dx%d, norm=%.6f ok\n", g_size, panels, nb, nb, norm);
  free(panel);
  free(all);
  MPI_Finalize();
  return 0;
}
