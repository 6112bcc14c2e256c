/* rma-sync-misuse: a read-mostly table lookup picks its lock type from a
 * flag and hands MPI_MODE_NOCHECK (an assert) as the lock type.
 * ranks: 2
 * expect: rma-sync-misuse rank 0|1 line 25
 * twin: sync_lock_type_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>

enum { N = 128 };

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  int* table = corpus_table(N, rank, &win);
  const int read_only = 1;
#ifdef CORRECT
  const int type = read_only ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE;
#else
  const int type = read_only ? MPI_MODE_NOCHECK : MPI_LOCK_EXCLUSIVE;
#endif
  int v = -1;
  MPI_Win_lock(type, 1 - rank, 0, win); // BUG
  MPI_Get(&v, 1, MPI_INT, 1 - rank, 7, 1, MPI_INT, win);
  MPI_Win_unlock(1 - rank, win);
  MPI_Win_free(&win);
  printf("rank %d read %d\n", rank, v);
  MPI_Finalize();
  return 0;
}
