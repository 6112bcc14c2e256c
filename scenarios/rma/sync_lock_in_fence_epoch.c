/* rma-unmatched-sync: a passive-target lock opened inside a fence epoch
 * (between two fences on the window), mixing active and passive target
 * synchronization.
 * ranks: 2
 * expect: rma-unmatched-sync rank 0 line 26
 * twin: sync_lock_after_fences_ok -DCORRECT
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int* cell;
  MPI_Win win;
  MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &cell, &win);
  int v = 5;
#ifdef CORRECT
  MPI_Win_fence(0, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
#else
  MPI_Win_fence(0, win);
#endif
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win); // BUG
    MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Win_unlock(1, win);
  }
#ifndef CORRECT
  MPI_Win_fence(0, win);
#endif
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
