/* Monte-Carlo tally: every rank counts hits per bin, the root collects the
 * totals with MPI_Ireduce and overlaps the reduction with drawing the next
 * batch. The root "resets the histogram for the next batch" while the
 * reduction into it is still pending: MPI-4.0 §6.12 forbids accessing a
 * pending collective's receive buffer; the reduction then overwrites the
 * reset (or the reset the result). Fixed: reset after the MPI_Wait.
 * ranks: 2
 * expect: receive-buffer-written rank 0 line 36
 * twin: icoll_ireduce_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BINS 64

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long* hits = calloc(BINS, sizeof(long));
  long* total = calloc(BINS, sizeof(long));
  unsigned state = 12345u + (unsigned)rank;
  long grand = 0;
  for (int batch = 0; batch < 3; ++batch) {
    for (int draw = 0; draw < 1000; ++draw) {
      state = state * 1103515245u + 12345u;
      hits[(state >> 16) % BINS]++;
    }
    MPI_Request req;
#ifdef FIXED
    MPI_Ireduce(hits, total, BINS, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int b = 0; b < BINS; ++b) hits[b] = 0;
#else
    MPI_Ireduce(hits, total, BINS, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD, &req);
    if (rank == 0)
      for (int b = 0; b < BINS; ++b) total[b] = 0; /* reset for the next batch: too early */
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int b = 0; b < BINS; ++b) hits[b] = 0;
#endif
    if (rank == 0)
      for (int b = 0; b < BINS; ++b) grand += total[b];
  }
  if (rank == 0) printf("draws: %ld\n", grand);
  free(total);
  free(hits);
  MPI_Finalize();
  return 0;
}
