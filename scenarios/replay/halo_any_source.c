/* 1-D halo exchange posted with MPI_ANY_SOURCE (issue 29). Each rank of a
 * periodic ring holds --cells cells, and every step posts two receives for
 * its halos, MPI_Irecv(MPI_ANY_SOURCE, tag 0) into left_halo then into
 * right_halo, sends its first cell to the left neighbour and its last to the
 * right one, waits with MPI_Waitall and smooths. The bug: the code assumes
 * the first receive gets the left neighbour's cell, but a wildcard receive
 * takes whichever arrives first, so the halos are swapped whenever the
 * right neighbour's message arrives first (the ranks run at different
 * speeds: --skew-us per rank). The result then differs from the serial
 * computation. --safe: each receive names its neighbour.
 * Outcome: exit 1 with "wrong result" when the checksum differs. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  int cells = 8, steps = 20, skew_us = 200, safe = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--safe") == 0) safe = 1;
    else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) steps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--skew-us") == 0 && i + 1 < argc) skew_us = atoi(argv[++i]);
  }
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  const int n = cells * size;
  double* u = malloc(sizeof(double) * (size_t)(cells + 2));
  double* all = malloc(sizeof(double) * (size_t)(n + 2));
  for (int i = 0; i < cells; ++i) u[i + 1] = sin(0.3 * (rank * cells + i));
  for (int i = 0; i < n; ++i) all[i + 1] = sin(0.3 * i);
  for (int s = 0; s < steps; ++s) {
    MPI_Request r[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, safe ? left : MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&u[cells + 1], 1, MPI_DOUBLE, safe ? right : MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &r[1]);
    usleep((useconds_t)(skew_us * ((rank + s) % 3)));
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &r[2]);
    MPI_Isend(&u[cells], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &r[3]);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    double* next = malloc(sizeof(double) * (size_t)(cells + 2));
    for (int i = 1; i <= cells; ++i) next[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
    memcpy(u + 1, next + 1, sizeof(double) * (size_t)cells);
    free(next);
    /* The serial reference, on every rank. */
    all[0] = all[n];
    all[n + 1] = all[1];
    double* ref = malloc(sizeof(double) * (size_t)(n + 2));
    for (int i = 1; i <= n; ++i) ref[i] = 0.25 * all[i - 1] + 0.5 * all[i] + 0.25 * all[i + 1];
    memcpy(all + 1, ref + 1, sizeof(double) * (size_t)n);
    free(ref);
  }
  double err = 0;
  for (int i = 0; i < cells; ++i) err = fmax(err, fabs(u[i + 1] - all[rank * cells + i + 1]));
  double worst = 0;
  MPI_Allreduce(&err, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) printf("halo_any_source: max error %.3g after %d steps\n", worst, steps);
  if (rank == 0 && worst > 1e-12) fprintf(stderr, "wrong result: halo exchange differs from the serial stencil\n");
  free(u);
  free(all);
  MPI_Finalize();
  return worst > 1e-12 ? 1 : 0;
}
