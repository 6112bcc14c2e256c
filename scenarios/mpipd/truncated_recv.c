/* truncated_recv — a receive buffer smaller than the message (MPI-PD's
 * buffer overflow situation, "invalid length of message buffer").
 *
 * Rank --sender sends --count ints to rank --receiver for --iterations
 * rounds; in the last round the receiver posts room for only --recv-count
 * ints. Every other rank waits in MPI_Barrier. With MPI's default error
 * handler (MPI_ERRORS_ARE_FATAL) the receive fails with MPI_ERR_TRUNCATE and
 * the job is aborted from inside MPI_Recv.
 *
 * Arguments: --iterations N (default 3), --count N (default 100),
 * --recv-count N (default 10), --sender S (default 0), --receiver R
 * (default 1).
 * Scales: >= 2 ranks; fails deterministically at every scale.
 * Expected: outcome mpi-abort (MPICH: "Message truncated"). MPI-PD: situation
 * buffer-overflow, faulty processes {S, R} (the pair of truncated events:
 * S's MPI_Send of 400 bytes and R's MPI_Recv with a 40-byte buffer); the
 * ranks in MPI_Barrier are propagated errors.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../spine/common_args.h"

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  scenario_init(&argc, &argv, &rank, &size);
  long iterations = 3, count = 100, recv_count = 10, sender = 0, receiver = 1;
  struct int_option opts[] = {{"--iterations", &iterations, 1}, {"--count", &count, 1},
                                   {"--recv-count", &recv_count, 0}, {"--sender", &sender, 0},
                                   {"--receiver", &receiver, 0}};
  if (parse_int_options(argc, argv, opts, 5) != 0 || sender >= size || receiver >= size || sender == receiver) {
    if (rank == 0) fprintf(stderr, "truncated_recv: needs distinct --sender and --receiver below %d\n", size);
    MPI_Finalize();
    return 2;
  }
  int* buf = calloc((size_t)count, sizeof(int));
  for (long it = 0; it < iterations; ++it) {
    if (rank == sender) {
      for (long i = 0; i < count; ++i) buf[i] = (int)(it * count + i);
      MPI_Send(buf, (int)count, MPI_INT, (int)receiver, 3, MPI_COMM_WORLD);
    } else if (rank == receiver) {
      const long room = it == iterations - 1 ? recv_count : count; /* BUG: buffer too small */
      MPI_Recv(buf, (int)room, MPI_INT, (int)sender, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0) printf("truncated_recv: done\n");
  free(buf);
  MPI_Finalize();
  return 0;
}
