/* Cost of guard_windows per MPI call (issue 33): one rank exposes a window
 * of PAGES pages and makes N calls of MPI_Iprobe (any cheap call: the
 * guarded pages open and close around every call), touching the window
 * between calls or not. With "threads" MPI runs at MPI_THREAD_MULTIPLE
 * (guard_windows' threaded mode: the pages stay protected across calls and
 * every access faults). Prints "seconds S calls N".
 * usage: guard_cost N PAGES touch|quiet [threads] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char** argv) {
  int provided;
  if (argc > 4 && strcmp(argv[4], "threads") == 0)
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  else
    MPI_Init(&argc, &argv);
  const long n = argc > 1 ? atol(argv[1]) : 100000;
  const long pages = argc > 2 ? atol(argv[2]) : 1;
  const int touch = argc > 3 && strcmp(argv[3], "touch") == 0;
  char* base;
  MPI_Win win;
  MPI_Win_allocate(pages * 4096, 1, MPI_INFO_NULL, MPI_COMM_SELF, &base, &win);
  memset(base, 0, pages * 4096);
  int flag;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long i = 0; i < n; ++i) {
    MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
    if (touch) base[(i * 64) % (pages * 4096)] += 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("seconds %.6f calls %ld\n", (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec), n);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
