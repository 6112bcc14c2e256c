/* Stack shapes for the call-site cache (injectors/recorder/stack_cache.hpp):
 *   inject_stacks callers K [calls]  one MPI_Iprobe reached through K callers
 *                                    in turn, all at the same stack depth
 *                                    (one cache key, K stacks)
 *   inject_stacks depths S [calls]   the same call from recursion depths
 *                                    0..S-1 in turn (S keys; worst case for
 *                                    the cache when S exceeds its size)
 * Prints "ns_per_call X"; run.sh compares bare, recorded with the cache and
 * recorded without it (SCALEFUZZ_STACK_CACHE=0). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int flag;
#define BARRIER() __asm__ volatile("" ::: "memory") /* no tail calls */

__attribute__((noinline)) static void leaf(void) {
  MPI_Iprobe(0, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  BARRIER();
}
__attribute__((noinline)) static void caller0(void) { leaf(); BARRIER(); }
__attribute__((noinline)) static void caller1(void) { leaf(); BARRIER(); }
__attribute__((noinline)) static void caller2(void) { leaf(); BARRIER(); }
__attribute__((noinline)) static void caller3(void) { leaf(); BARRIER(); }

__attribute__((noinline)) static void at_depth(int d) {
  if (d == 0)
    leaf();
  else
    at_depth(d - 1);
  BARRIER();
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* shape = argc > 1 ? argv[1] : "callers";
  int k = argc > 2 ? atoi(argv[2]) : 2;
  long calls = argc > 3 ? atol(argv[3]) : 200000;
  if (k < 1) k = 1;
  void (*callers[4])(void) = {caller0, caller1, caller2, caller3};
  int by_depth = strcmp(shape, "depths") == 0;
  if (!by_depth && k > 4) k = 4;
  double t0 = MPI_Wtime();
  for (long i = 0; i < calls; ++i) {
    if (by_depth)
      at_depth((int)(i % k));
    else
      callers[i % k]();
  }
  double t = MPI_Wtime() - t0;
  printf("ns_per_call %.1f\n", t / (double)calls * 1e9);
  MPI_Finalize();
  return 0;
}
