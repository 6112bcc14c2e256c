/* A Waitany pipeline (issue 29): rank 0 posts one MPI_Irecv per producer
 * (ranks 1..N-1, --rounds rounds) and folds each block into a running
 * state in MPI_Waitany's completion order; producers compute for a
 * rank-dependent time before each send. The bug: the fold is not
 * commutative (state = state * 31 + value, as an order-dependent checksum
 * or a running prefix is), so the result depends on which producer's block
 * completes first, and the check against the producer-order fold fails
 * whenever a higher rank's block arrives first. --safe: blocks are folded
 * in producer order after MPI_Waitall. --sum (a second correct twin, for
 * schedule exploration, issue 30): the same MPI_Waitany loop, but the fold
 * is a sum, which no completion order changes.
 * Outcome: exit 1 with "wrong result" when the fold differs. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  int rounds = 4, safe = 0, sum = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--safe") == 0) safe = 1;
    else if (strcmp(argv[i], "--sum") == 0) sum = 1;
    else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) rounds = atoi(argv[++i]);
  }
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int producers = size - 1;
  if (rank != 0) {
    for (int r = 0; r < rounds; ++r) {
      usleep((useconds_t)(100 * ((rank * 5 + r * 3) % 4)));
      long v = rank * 1000 + r;
      MPI_Send(&v, 1, MPI_LONG, 0, r, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  }
  unsigned long state = 1, expected = 1;
  long* blocks = malloc(sizeof(long) * (size_t)producers);
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * (size_t)producers);
  for (int r = 0; r < rounds; ++r) {
    for (int p = 0; p < producers; ++p) MPI_Irecv(&blocks[p], 1, MPI_LONG, p + 1, r, MPI_COMM_WORLD, &reqs[p]);
    if (safe) {
      MPI_Waitall(producers, reqs, MPI_STATUSES_IGNORE);
      for (int p = 0; p < producers; ++p) state = state * 31 + (unsigned long)blocks[p];
    } else {
      for (int k = 0; k < producers; ++k) {
        int idx;
        MPI_Waitany(producers, reqs, &idx, MPI_STATUS_IGNORE);
        if (sum)
          state += (unsigned long)blocks[idx];
        else
          state = state * 31 + (unsigned long)blocks[idx]; /* BUG: completion order */
      }
    }
    for (int p = 0; p < producers; ++p)
      expected = sum ? expected + (unsigned long)((p + 1) * 1000 + r) : expected * 31 + (unsigned long)((p + 1) * 1000 + r);
  }
  printf("waitany_pipeline: state %lu, expected %lu\n", state, expected);
  if (state != expected) fprintf(stderr, "wrong result: blocks folded out of producer order\n");
  free(blocks);
  free(reqs);
  MPI_Finalize();
  return state != expected ? 1 : 0;
}
