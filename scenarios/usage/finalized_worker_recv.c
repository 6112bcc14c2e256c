/* Master/worker with an off-by-one: the master hands out work to ranks
 * 1 .. size-2 only and finalizes; the last worker waits in MPI_Recv for work
 * from a rank that already called MPI_Finalize (not a deadlock cycle).
 * ranks: 3
 * expect: waits-for-finalized rank 2 line 27
 * twin: finalized_ok -DFIXED
 */
#include <mpi.h>

#include "../spine/common_args.h"

#define WORK 16

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  double work[WORK];
  if (rank == 0) {
    for (int i = 0; i < WORK; ++i) work[i] = i;
#ifdef FIXED
    for (int w = 1; w < size; ++w)
#else
    for (int w = 1; w < size - 1; ++w)
#endif
      MPI_Send(work, WORK, MPI_DOUBLE, w, 0, MPI_COMM_WORLD);
  } else {
    MPI_Recv(work, WORK, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
