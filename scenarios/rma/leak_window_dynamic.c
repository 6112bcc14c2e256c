/* leaked-window: a dynamic window for a growing list of buffers is
 * detached from its memory but never freed.
 * ranks: 2
 * expect: leaked-window rank 0|1 line 16
 * twin: leak_window_dynamic_ok -DCORRECT
 */
#include <mpi.h>

#include "corpus.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  const int rank = corpus_init(&argc, &argv, MPI_THREAD_SINGLE, 0);
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win); // BUG
  double* list = malloc(256 * sizeof(double));
  MPI_Win_attach(win, list, 256 * sizeof(double));
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_detach(win, list);
  free(list);
#ifdef CORRECT
  MPI_Win_free(&win);
#endif
  if (rank == 0) printf("done\n");
  MPI_Finalize();
  return 0;
}
