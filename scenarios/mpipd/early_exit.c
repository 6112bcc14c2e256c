/* early_exit — a rank leaves without sending what its peer waits for
 * (MPI-PD's "non-occurred event" and its calculation-fault twin).
 *
 * For --rounds rounds every rank r > 0 sends one value to rank 0, which
 * receives them from ranks 1..n-1 in order; then everyone calls MPI_Barrier.
 * The bug: in the last round rank --leaver returns before its send:
 *   --finalize 0 (default): it calls exit(3) without MPI_Finalize, i.e. the
 *     process stops outside MPI;
 *   --finalize 1: it calls MPI_Finalize and returns 0, a "normal" end.
 *
 * Arguments: --rounds N (default 3), --leaver L (default n-1, must be > 0),
 * --finalize 0|1.
 * Scales: >= 2 ranks; fails deterministically at every scale.
 * Expected:
 *   --finalize 0: outcome failed or hang (MPICH may tear the job down when a
 *     rank exits without finalizing). MPI-PD: situation calculation-fault,
 *     faulty processes {L}; rank 0 blocked in MPI_Recv from L and the others
 *     in MPI_Barrier are propagated.
 *   --finalize 1: outcome hang. MPI-PD: situation non-occurred-event, faulty
 *     processes {0, L} (Figure 4(b): either 0 receives redundantly or L missed
 *     its send).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../spine/common_args.h"

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  scenario_init(&argc, &argv, &rank, &size);
  long rounds = 3, leaver = size - 1, finalize = 0;
  struct int_option opts[] = {{"--rounds", &rounds, 1}, {"--leaver", &leaver, 1}, {"--finalize", &finalize, 0}};
  if (parse_int_options(argc, argv, opts, 3) != 0 || size < 2 || leaver >= size || finalize > 1) {
    if (rank == 0) fprintf(stderr, "early_exit: needs >= 2 ranks, 0 < --leaver < %d, --finalize 0|1\n", size);
    MPI_Finalize();
    return 2;
  }
  for (long round = 0; round < rounds; ++round) {
    int value = (int)(rank * 100 + round);
    if (rank == 0) {
      for (int src = 1; src < size; ++src) MPI_Recv(&value, 1, MPI_INT, src, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      if (rank == leaver && round == rounds - 1) { /* BUG: leaves before its last send */
        if (finalize) {
          MPI_Finalize();
          return 0;
        }
        exit(3); /* a nonzero status: with 0 MPICH may report the torn-down job as a success */
      }
      MPI_Send(&value, 1, MPI_INT, 0, 11, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0) printf("early_exit: done\n");
  MPI_Finalize();
  return 0;
}
