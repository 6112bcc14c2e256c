/* lulesh_proxy — the communication skeleton of LULESH 2.0 (LLNL's shock
 * hydrodynamics proxy app), for trace size and growth measurements.
 *
 * The ranks form a 3-D block grid (MPI_Dims_create); every rank owns an
 * --n^3 block of doubles. A time step does what LULESH's CommRecv/CommSend/
 * CommSBN/CommSyncPosVel/CommMonoQ do (lulesh-comm.cc): three halo exchanges
 * (forces, positions+velocities, monotonic-Q gradients) with every existing
 * neighbour among the 26 (faces n^2 doubles, edges n, corners 1) — receives
 * posted first with MPI_Irecv, sends with MPI_Isend, MPI_Waitall on the sends
 * and one MPI_Wait per receive, each message unpacked and summed into the
 * block — then MPI_Allreduce(MPI_MIN) of the next time step, as
 * TimeIncrement() does. A little computation between phases.
 *
 * Arguments: --iterations N (default 20), --n N (block edge, default 8).
 * Prints "lulesh_proxy: ok steps=N checksum=X" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NEIGHBOURS 26

typedef struct {
  int rank;
  int count; /* doubles */
  double* send;
  double* recv;
} Neighbour;

static int arg_int(int argc, char** argv, const char* name, int dflt) {
  for (int i = 1; i + 1 < argc; ++i)
    if (strcmp(argv[i], name) == 0) return atoi(argv[i + 1]);
  return dflt;
}

/* The 26 neighbours that exist in a non-periodic grid (LULESH's domain has
 * no wrap-around): message size by how many coordinates differ. */
static int find_neighbours(MPI_Comm cart, const int dims[3], const int coords[3], int n, Neighbour* out) {
  int count = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if (dx == 0 && dy == 0 && dz == 0) continue;
        int c[3] = {coords[0] + dx, coords[1] + dy, coords[2] + dz};
        if (c[0] < 0 || c[1] < 0 || c[2] < 0 || c[0] >= dims[0] || c[1] >= dims[1] || c[2] >= dims[2]) continue;
        int moved = (dx != 0) + (dy != 0) + (dz != 0);
        Neighbour* nb = &out[count++];
        MPI_Cart_rank(cart, c, &nb->rank);
        nb->count = moved == 1 ? n * n : moved == 2 ? n : 1;
        /* room for the largest exchange (6 fields: 2 * count + 1 doubles) */
        nb->send = calloc(2 * (size_t)nb->count + 1, sizeof(double));
        nb->recv = calloc(2 * (size_t)nb->count + 1, sizeof(double));
      }
  return count;
}

/* One halo exchange: receives first, then sends, Waitall on the sends and a
 * Wait per receive (the order of lulesh-comm.cc). `fields` scales the message
 * like LULESH's xferFields. */
static double exchange(MPI_Comm cart, Neighbour* nb, int nnb, int tag, const double* block, int fields) {
  MPI_Request recv_req[MAX_NEIGHBOURS], send_req[MAX_NEIGHBOURS];
  for (int i = 0; i < nnb; ++i)
    MPI_Irecv(nb[i].recv, nb[i].count * fields / 3 + 1, MPI_DOUBLE, nb[i].rank, tag, cart, &recv_req[i]);
  for (int i = 0; i < nnb; ++i) {
    for (int k = 0; k < nb[i].count * fields / 3 + 1; ++k) nb[i].send[k] = block[k % nb[i].count] + tag;
    MPI_Isend(nb[i].send, nb[i].count * fields / 3 + 1, MPI_DOUBLE, nb[i].rank, tag, cart, &send_req[i]);
  }
  MPI_Waitall(nnb, send_req, MPI_STATUSES_IGNORE);
  double sum = 0;
  for (int i = 0; i < nnb; ++i) {
    MPI_Status st;
    MPI_Wait(&recv_req[i], &st);
    for (int k = 0; k < nb[i].count * fields / 3 + 1 && k < nb[i].count; ++k) sum += nb[i].recv[k];
  }
  return sum;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int iterations = arg_int(argc, argv, "--iterations", 20);
  int n = arg_int(argc, argv, "--n", 8);
  if (iterations < 1 || n < 1 || n > 128) {
    fprintf(stderr, "usage: lulesh_proxy [--iterations N>=1] [--n 1..128]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0}, coords[3];
  MPI_Dims_create(size, 3, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 3, coords);
  Neighbour nb[MAX_NEIGHBOURS];
  int nnb = find_neighbours(cart, dims, coords, n, nb);

  size_t cells = (size_t)n * (size_t)n * (size_t)n;
  double* block = malloc(cells * sizeof(double));
  for (size_t i = 0; i < cells; ++i) block[i] = (double)(rank + 1) / (double)(i + 1);
  double dt = 1e-3, checksum = 0;
  for (int step = 0; step < iterations; ++step) {
    checksum += exchange(cart, nb, nnb, 1, block, 3); /* CommSBN: nodal forces */
    for (size_t i = 0; i < cells; ++i) block[i] = block[i] * 0.999 + dt;
    checksum += exchange(cart, nb, nnb, 2, block, 6); /* CommSyncPosVel */
    for (size_t i = 0; i < cells; ++i) block[i] -= dt * 0.5;
    checksum += exchange(cart, nb, nnb, 3, block, 3); /* CommMonoQ gradients */
    double local_dt = dt * (1.0 + 0.01 * (double)((rank + step) % 7)), next_dt;
    MPI_Allreduce(&local_dt, &next_dt, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD); /* TimeIncrement */
    dt = next_dt;
  }
  double total = 0;
  MPI_Reduce(&checksum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("lulesh_proxy: ok steps=%d checksum=%.6g\n", iterations, total);
  for (int i = 0; i < nnb; ++i) {
    free(nb[i].send);
    free(nb[i].recv);
  }
  free(block);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
