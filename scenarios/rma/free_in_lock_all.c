/* rma-free-in-epoch: an early return path frees the window while the
 * MPI_Win_lock_all epoch it opened is still open.
 * ranks: 2
 * expect: rma-free-in-epoch rank 0|1 line 27
 * twin: free_after_unlock_all_ok -DCORRECT
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long* hits;
  MPI_Win win;
  MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &hits, &win);
  *hits = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);
  const long one = 1;
  MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
#ifdef CORRECT
  MPI_Win_unlock_all(win);
#else
  MPI_Win_flush_all(win);
#endif
  MPI_Win_free(&win); // BUG
  MPI_Finalize();
  return 0;
}
