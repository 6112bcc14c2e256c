/* Allocation cost under the injector: malloc+free pairs of application
 * buffers (a C++ code's temporaries), ns per pair. Run bare and preloaded. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  long pairs = argc > 1 ? atol(argv[1]) : 2000000;
  size_t size = argc > 2 ? (size_t)atol(argv[2]) : 4096;
  MPI_Init(&argc, &argv);
  volatile char sink = 0;
  double t0 = now();
  for (long i = 0; i < pairs; ++i) {
    char* p = malloc(size + (size_t)(i & 7) * 8);
    p[0] = (char)i;
    sink += p[0];
    free(p);
  }
  double t1 = now();
  printf("ns_per_pair %.1f\n", (t1 - t0) * 1e9 / (double)pairs);
  MPI_Finalize();
  return sink == 42;
}
