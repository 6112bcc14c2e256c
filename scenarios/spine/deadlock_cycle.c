/* deadlock_cycle — cyclic synchronous sends (MPI-PD's deadlock situation).
 *
 * A few clean warm-up iterations exchange with MPI_Sendrecv around the ring
 * (so a tracer has history before the failure); then every rank calls
 * MPI_Ssend to its right neighbour *before* posting the receive from its left
 * neighbour. MPI_Ssend completes only when the matching receive has started,
 * and no rank ever reaches its receive: a wait-for cycle over all ranks.
 *
 * Arguments: --warmup N clean iterations first (default 3), --count N ints
 * (default 16).
 * Scales: hangs deterministically at every scale >= 2 (and at 1, where the
 * rank waits on itself); no noise needed. The ranks busy-poll inside
 * MPI_Ssend (MPICH never yields), so they burn CPU until killed.
 * What scalefuzz must report: outcome hang at the campaign timeout, with a
 * stack for every rank showing MPI_Ssend called from send_then_receive();
 * MPI-PD/PDG later: all ranks in the cycle, blocked in the Ssend.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common_args.h"

static void warmup_exchange(int* out, int* in, int count, int right, int left) {
  MPI_Sendrecv(out, count, MPI_INT, right, 5, in, count, MPI_INT, left, 5, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
}

/* The bug: the synchronous send is issued before the receive on every rank. */
static void send_then_receive(int* out, int* in, int count, int right, int left) {
  MPI_Ssend(out, count, MPI_INT, right, 9, MPI_COMM_WORLD);
  MPI_Recv(in, count, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  scenario_init(&argc, &argv, &rank, &size);

  long warmup = 3, count = 16;
  struct int_option options[] = {{"--warmup", &warmup, 0}, {"--count", &count, 1}};
  if (parse_int_options(argc, argv, options, 2) != 0) MPI_Abort(MPI_COMM_WORLD, 2);

  int right = (rank + 1) % size;
  int left = (rank + size - 1) % size;
  int* out = calloc((size_t)count, sizeof(int));
  int* in = calloc((size_t)count, sizeof(int));
  for (long it = 0; it < warmup; ++it) warmup_exchange(out, in, (int)count, right, left);
  if (rank == 0) {
    printf("deadlock_cycle: warm-up done, entering the Ssend cycle on %d ranks\n", size);
    fflush(stdout);
  }
  send_then_receive(out, in, (int)count, right, left);

  /* Not reached. */
  printf("deadlock_cycle: rank %d escaped the cycle\n", rank);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
