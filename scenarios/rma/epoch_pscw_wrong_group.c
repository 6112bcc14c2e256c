/* rma-outside-epoch: a PSCW pipeline stage opens its access epoch with
 * MPI_Win_start on the group of its upstream rank but puts to the
 * downstream one, which is not in the group.
 * ranks: 3
 * expect: rma-outside-epoch rank 1 line 28
 * twin: epoch_pscw_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  int* slot = corpus_window(1, sizeof(int), &win);
  MPI_Group world, g;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int value = 7;
  if (rank == 1) {
#ifdef CORRECT
    const int down = 2;
#else
    const int down = 0;  /* the upstream rank, by mistake */
#endif
    MPI_Group_incl(world, 1, &down, &g);
    MPI_Win_start(g, 0, win);
    MPI_Put(&value, 1, MPI_INT, 2, 0, 1, MPI_INT, win); // BUG
    MPI_Win_complete(win);
    MPI_Group_free(&g);
  }
#ifdef CORRECT
  if (rank == 2) {
#else
  if (rank == 0) {
#endif
    const int up = 1;
    MPI_Group_incl(world, 1, &up, &g);
    MPI_Win_post(g, 0, win);
    MPI_Win_wait(win);
    MPI_Group_free(&g);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 2) printf("slot %d\n", *slot);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
