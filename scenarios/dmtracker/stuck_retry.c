/* DMTracker case 2 (§5.2): one process stuck in a retry loop while the
 * others progress. Every step each rank exchanges halos with both ring
 * neighbours and asks its right neighbour for a work token (request -> ack).
 *
 * Bug (built unless SF_CLEAN): the rank given by --stuck re-sends its request
 * --retries times per step before it notices the ack: its check reads a copy
 * of the flag taken before the ack arrived (the paper's missing `volatile`).
 * The results stay correct and nothing hangs; the stuck rank is just the one
 * whose data movements look unlike everybody else's.
 * Expected (dmtracker): rank --stuck is the only chain-distribution outlier,
 * the request send of request_token() the group that contributes most.
 * Clean twin (stuck_retry_clean): one request per step on every rank.
 *
 *   stuck_retry [--steps N] [--stuck R] [--retries K] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../spine/common_args.h"

enum { TAG_HALO = 1, TAG_REQ = 2, TAG_ACK = 3, HALO = 64 };

/* A request carries how many more copies follow: the responder acks the last. */
static void request_token(int* msg, int right, long step, int retries) {
  for (int left = retries - 1; left >= 0; --left) {
    msg[0] = (int)step;
    msg[1] = left;
    MPI_Send(msg, 2, MPI_INT, right, TAG_REQ, MPI_COMM_WORLD);
  }
}

static void serve_token(int* msg, int left_rank, int* ack) {
  msg[1] = 1;
  while (msg[1] != 0) MPI_Recv(msg, 2, MPI_INT, left_rank, TAG_REQ, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  ack[0] = msg[0];
  MPI_Send(ack, 1, MPI_INT, left_rank, TAG_ACK, MPI_COMM_WORLD);
}

int main(int argc, char** argv) {
  long steps = 60, stuck = 5, retries = 20;
  struct int_option opts[] = {{"--steps", &steps, 1}, {"--stuck", &stuck, 0}, {"--retries", &retries, 1}};
  if (parse_int_options(argc, argv, opts, 3) != 0) return 2;
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double* out = (double*)malloc(2 * HALO * sizeof(double));
  double* in = (double*)malloc(2 * HALO * sizeof(double));
  int* ack = (int*)malloc(16 * sizeof(int));
  int* got = (int*)malloc(16 * sizeof(int));
  int* req = (int*)malloc(16 * sizeof(int));
  int* inbox = (int*)malloc(16 * sizeof(int));
  double sum = 0;
#ifdef SF_CLEAN
  retries = 1;
#endif
  for (long step = 0; step < steps; ++step) {
    for (int i = 0; i < 2 * HALO; ++i) out[i] = rank + step + i;
    MPI_Sendrecv(out, HALO, MPI_DOUBLE, left, TAG_HALO, in, HALO, MPI_DOUBLE, right, TAG_HALO, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(out + HALO, HALO, MPI_DOUBLE, right, TAG_HALO, in + HALO, HALO, MPI_DOUBLE, left, TAG_HALO,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 2 * HALO; ++i) sum += in[i];
    MPI_Request r;
    MPI_Irecv(got, 1, MPI_INT, right, TAG_ACK, MPI_COMM_WORLD, &r);
    request_token(req, right, step, rank == stuck ? (int)retries : 1);
    serve_token(inbox, left, ack);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  double total = 0;
  MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("stuck_retry: %d ranks, %ld steps, sum=%.0f\n", size, steps, total);
  free(out);
  free(in);
  free(ack);
  free(got);
  free(req);
  free(inbox);
  MPI_Finalize();
  return 0;
}
