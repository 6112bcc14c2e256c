/* rma-origin-buffer: rank 0 gathers one value from every rank with MPI_Get
 * in a fence epoch, but an off-by-one in the index makes two Gets write the
 * same element of its buffer before the fence completes them.
 * ranks: 3
 * expect: rma-origin-buffer rank 0 line 29
 * twin: gather_gets_ok -DCORRECT
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int* mine;
  MPI_Win win;
  MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win);
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
