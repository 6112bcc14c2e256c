/* rma-conflict (target-side store): the consumer of a PSCW pipeline clears
 * its inbox after MPI_Win_post instead of before it, while the producer's
 * MPI_Put into the inbox may already run.
 * ranks: 2
 * mode: guard-windows
 * expect: rma-conflict rank 0 line 32
 * twin: pscw_early_write_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>
#include <string.h>

enum { SLOTS = 1024 };

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  int* inbox = corpus_window(SLOTS, sizeof(int), &win);
  MPI_Group world, peer;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  const int other = 1 - rank;
  MPI_Group_incl(world, 1, &other, &peer);
  int data[4] = {1, 2, 3, 4};
  if (rank == 0) {
#ifdef CORRECT
    inbox[0] = -1;
    MPI_Win_post(peer, 0, win);
#else
    MPI_Win_post(peer, 0, win);
    inbox[0] = -1; // BUG
#endif
    MPI_Win_wait(win);
    printf("inbox %d\n", inbox[0]);
  } else {
    MPI_Win_start(peer, 0, win);
    MPI_Put(data, 4, MPI_INT, 0, 0, 4, MPI_INT, win);
    MPI_Win_complete(win);
  }
  MPI_Group_free(&peer);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
