/* rma-origin-buffer: rank 0 gathers one value from every rank with MPI_Get
 * in a fence epoch, but an off-by-one in the index makes two Gets write the
 * same element of its buffer before the fence completes them.
 * ranks: 3
 * expect: rma-origin-buffer rank 0 line 28
 * twin: gather_gets_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

int main(int argc, char** argv) {
  int size;
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, &size);
  MPI_Win win;
  int* mine = corpus_window(1, sizeof(int), &win);
  *mine = 10 * rank;
  int all[8] = {0};
  MPI_Win_fence(0, win);
  if (rank == 0)
    for (int r = 1; r < size; ++r) {
#ifdef CORRECT
      const int at = r;
#else
      const int at = (r + 1) / 2;  /* ranks 1 and 2 both land on all[1] */
#endif
      MPI_Get(&all[at], 1, MPI_INT, r, 0, 1, MPI_INT, win); // BUG
    }
  MPI_Win_fence(0, win);
  if (rank == 0) printf("%d %d %d\n", all[0], all[1], all[2]);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
