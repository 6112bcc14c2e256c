/* rma-conflict: a two-producer PSCW pipeline. Rank 0 exposes an inbox of
 * two slots with MPI_Win_post; producers 1 and 2 open access epochs with
 * MPI_Win_start and put their block into their slot. Producer 2 computes
 * its slot from a stale variable and writes slot 0, producer 1's slot.
 * ranks: 3
 * expect: rma-conflict rank 2 line 39
 * twin: pscw_pipeline_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

enum { BLOCK = 4 };

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  int* inbox = corpus_window(2 * BLOCK, sizeof(int), &win);
  MPI_Group world, peers;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int block[BLOCK];
  for (int i = 0; i < BLOCK; ++i) block[i] = rank * 100 + i;
  for (int round = 0; round < 2; ++round) {
    if (rank == 0) {
      const int producers[2] = {1, 2};
      MPI_Group_incl(world, 2, producers, &peers);
      MPI_Win_post(peers, 0, win);
      MPI_Win_wait(win);
      printf("round %d: %d %d\n", round, inbox[0], inbox[BLOCK]);
    } else {
      const int consumer = 0;
      MPI_Group_incl(world, 1, &consumer, &peers);
      int slot = rank - 1;
#ifndef CORRECT
      if (rank == 2) slot = round;  /* stale: the round, not the producer */
#endif
      MPI_Win_start(peers, 0, win);
      MPI_Put(block, BLOCK, MPI_INT, 0, slot * BLOCK, BLOCK, MPI_INT, win); // BUG
      MPI_Win_complete(win);
    }
    MPI_Group_free(&peers);
  }
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
