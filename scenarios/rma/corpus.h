/* Helpers of the corpus programs (scenarios/rma). corpus_init: MPI up at
 * `level` (MPI_THREAD_SINGLE: plain MPI_Init), the rank returned and the
 * size stored into *size when given. */
#ifndef SCALEFUZZ_RMA_CORPUS_H
#define SCALEFUZZ_RMA_CORPUS_H
#include <mpi.h>

static inline int corpus_init(int* argc, char*** argv, int level, int* size) {
  int provided, rank;
  if (level == MPI_THREAD_SINGLE) MPI_Init(argc, argv);
  else MPI_Init_thread(argc, argv, level, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (size != 0) MPI_Comm_size(MPI_COMM_WORLD, size);
  return rank;
}

/* MPI_Win_allocate of `count` elements of `elem` bytes (the displacement
 * unit) on MPI_COMM_WORLD: the window's memory. */
static inline void* corpus_window(MPI_Aint count, int elem, MPI_Win* win) {
  void* base;
  MPI_Win_allocate(count * elem, elem, MPI_INFO_NULL, MPI_COMM_WORLD, &base, win);
  return base;
}
#endif
