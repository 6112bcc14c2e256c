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

/* A shared counter: one long on every rank, zeroed before any rank may
 * add to it (the barrier). */
static inline long* corpus_counter(MPI_Win* win) {
  long* counter = corpus_window(1, sizeof(long), win);
  *counter = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  return counter;
}

/* A lookup table of `n` ints per rank, entry i = rank * n + i, filled on
 * every rank before any rank reads a remote one (the barrier). */
static inline int* corpus_table(int n, int rank, MPI_Win* win) {
  int* table = corpus_window(n, sizeof(int), win);
  for (int i = 0; i < n; ++i) table[i] = rank * n + i;
  MPI_Barrier(MPI_COMM_WORLD);
  return table;
}
#endif
