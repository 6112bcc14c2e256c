/* ring — clean ring exchange (a "clean twin": carries no bug).
 *
 * Every iteration each rank posts MPI_Irecv from its left neighbour, sends
 * --count ints with MPI_Send to its right neighbour and waits. The payload
 * encodes (sender, iteration, index), so every rank checks exactly what it
 * got. At the end the mismatch count is summed with MPI_Allreduce.
 *
 * Arguments: --iterations N (default 100), --count N ints per message
 * (default 64).
 * Scales: any (1 rank sends to itself).
 * What scalefuzz must report: outcome ok at every scale and noise mode; a
 * non-zero exit ("ring: WRONG ...") means the transport or an injector
 * corrupted or misrouted data.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common_args.h"

static int payload(int sender, long iteration, long index) {
  return (int)((sender * 1000003L + iteration * 7919L + index) % 2147483647L);
}

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  scenario_init(&argc, &argv, &rank, &size);

  long iterations = 100, count = 64;
  struct int_option options[] = {{"--iterations", &iterations, 1}, {"--count", &count, 1}};
  if (parse_int_options(argc, argv, options, 2) != 0) MPI_Abort(MPI_COMM_WORLD, 2);

  int right = (rank + 1) % size;
  int left = (rank + size - 1) % size;
  int* out = malloc(sizeof(int) * (size_t)count);
  int* in = malloc(sizeof(int) * (size_t)count);
  long mismatches = 0;
  for (long it = 0; it < iterations; ++it) {
    for (long i = 0; i < count; ++i) out[i] = payload(rank, it, i);
    MPI_Request request;
    MPI_Irecv(in, (int)count, MPI_INT, left, 17, MPI_COMM_WORLD, &request);
    MPI_Send(out, (int)count, MPI_INT, right, 17, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    for (long i = 0; i < count; ++i)
      if (in[i] != payload(left, it, i)) ++mismatches;
  }
  long total = 0;
  MPI_Allreduce(&mismatches, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    if (total == 0)
      printf("ring: OK ranks=%d iterations=%ld count=%ld\n", size, iterations, count);
    else
      printf("ring: WRONG %ld mismatching values\n", total);
  }
  free(out);
  free(in);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
