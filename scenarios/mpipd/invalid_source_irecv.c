/* invalid_source_irecv — a nonblocking receive names the wrong source
 * (MPI-PD case studies 1 and 3: "an invalid source was specified at an Irecv").
 *
 * Every rank exchanges with its ring neighbours: MPI_Irecv from the left,
 * MPI_Isend to the right, MPI_Waitall, for --iterations rounds; then
 * MPI_Barrier and MPI_Finalize. The bug: in the last round rank --bad-rank
 * posts its MPI_Irecv from its RIGHT neighbour, which never sends to it.
 *
 * Arguments: --iterations N (default 4), --bad-rank R (default 1), --count N
 * ints (default 8).
 * Scales: needs >= 3 ranks (at 2 the right neighbour is the left one and the
 * program is correct); hangs deterministically at every scale >= 3.
 * Expected: outcome hang. Rank R blocks in MPI_Waitall; rank R+1 (mod n),
 * whose message from R arrived, blocks in MPI_Barrier waiting for R; the
 * others block in MPI_Barrier too. MPI-PD: situation deadlock (R waits on
 * R+1 through its isolated Irecv, R+1 waits on R in the barrier), faulty
 * processes {R, R+1 mod n}; R-1's unreceived Isend and the other ranks'
 * barrier calls are propagated errors.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../spine/common_args.h"

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  scenario_init(&argc, &argv, &rank, &size);
  long iterations = 4, bad_rank = 1, count = 8;
  struct int_option opts[] = {{"--iterations", &iterations, 1}, {"--bad-rank", &bad_rank, 0}, {"--count", &count, 1}};
  if (parse_int_options(argc, argv, opts, 3) != 0 || bad_rank >= size) {
    if (rank == 0 && bad_rank >= size) fprintf(stderr, "--bad-rank %ld is not a rank of %d\n", bad_rank, size);
    MPI_Finalize();
    return 2;
  }
  int* out = calloc((size_t)count, sizeof(int));
  int* in = calloc((size_t)count, sizeof(int));
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (long it = 0; it < iterations; ++it) {
    for (long i = 0; i < count; ++i) out[i] = (int)(rank * 1000 + it);
    int source = left;
    if (it == iterations - 1 && rank == bad_rank) source = right; /* BUG: should be left */
    MPI_Request reqs[2];
    MPI_Irecv(in, (int)count, MPI_INT, source, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(out, (int)count, MPI_INT, right, 7, MPI_COMM_WORLD, &reqs[1]);
    MPI_Status statuses[2];
    MPI_Waitall(2, reqs, statuses);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("invalid_source_irecv: done\n");
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
