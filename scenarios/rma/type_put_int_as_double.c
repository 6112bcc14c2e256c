/* rma-type-mismatch: a particle exchange sends a pair of ints (an id and a
 * cell) into a slot it describes at the target as one double.
 * ranks: 2
 * expect: rma-type-mismatch rank 0|1 line 22
 * twin: type_put_doubles_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  int* slots = corpus_window(8, sizeof(int), &win);
  for (int i = 0; i < 8; ++i) slots[i] = -1;
  const int particle[2] = {rank + 10, rank + 20};
  MPI_Win_fence(0, win);
#ifdef CORRECT
  MPI_Put(particle, 2, MPI_INT, 1 - rank, 2, 2, MPI_INT, win);
#else
  MPI_Put(particle, 2, MPI_INT, 1 - rank, 2, 1, MPI_DOUBLE, win); // BUG
#endif
  MPI_Win_fence(0, win);
  printf("rank %d slot %d %d\n", rank, slots[2], slots[3]);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
