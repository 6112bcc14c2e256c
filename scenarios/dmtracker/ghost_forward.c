/* DMTracker with MPI_Pack/MPI_Unpack: ghost atoms of a short-range particle
 * code, exchanged in two phases over a 2 x (size/2) process grid the way
 * LAMMPS's "borders" does. Phase x: each rank packs the positions and types
 * of its x-border atoms (a derived type picking 2 of the atom's 5 fields, so
 * every pack has holes) into the x send buffer, exchanges it with its x
 * neighbours and unpacks the received atoms as ghosts. Phase y: the y-border
 * atoms and the x ghosts just received (the corner atoms) are packed into
 * the y send buffer and exchanged with the y neighbours. A corner atom thus
 * moves pack -> message -> unpack -> pack -> message -> unpack.
 *
 * Bug (built unless SF_CLEAN): the y message is sent from the buffer chosen
 * by y_send_buffer(), which on a rare path (a large forward: both x
 * neighbours sent nearly their largest border) returns the x buffer: the
 * freshly packed y buffer is never sent, the neighbours silently get the x
 * phase's atoms as ghosts. Nothing hangs or crashes.
 * Expected (dmtracker): a broken-chain violation ranked first, with a
 * context match, at exchange_y's MPI_Sendrecv.
 * Clean twin (ghost_forward_clean): always sends the y buffer; no violation.
 *
 *   ghost_forward [--steps N] [--atoms A] */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "../spine/common_args.h"

enum { TAG_X = 11, TAG_Y = 12, MAX_BORDER = 20, LARGE_FORWARD = 38 };

struct atom {
  double x[3];
  double v[3];
  double f[3];
  int type;
  int id;
};

struct halo {
  MPI_Datatype border;  /* x[3] and type of one atom, extent sizeof(struct atom) */
  int per_atom;         /* packed bytes of one atom */
  int capacity;         /* bytes of each buffer */
  char* send[2];        /* one send buffer per phase */
  char* recv;
};

static char* grow_buffer(int bytes) { return (char*)calloc((size_t)bytes, 1); }
static char* alloc_recv(int bytes) { return (char*)malloc((size_t)bytes); }

/* Atoms within the cutoff of a face: varies with the step as atoms move. */
static int border_count(long step, int rank, int dir) { return 12 + (int)((step * 5 + rank * 3 + dir * 7) % 9); }

static void halo_init(struct halo* h, int max_atoms) {
  int blocks[2] = {3, 1};
  MPI_Aint displs[2] = {offsetof(struct atom, x), offsetof(struct atom, type)};
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT}, tmp;
  MPI_Type_create_struct(2, blocks, displs, types, &tmp);
  MPI_Type_create_resized(tmp, 0, sizeof(struct atom), &h->border);
  MPI_Type_commit(&h->border);
  MPI_Type_free(&tmp);
  MPI_Pack_size(1, h->border, MPI_COMM_WORLD, &h->per_atom);
  h->capacity = h->per_atom * max_atoms;
  for (int b = 0; b < 2; ++b) h->send[b] = grow_buffer(h->capacity);
  h->recv = alloc_recv(h->capacity);
}

/* Phase x: border atoms to the left and right neighbours; returns the ghosts received. */
static int exchange_x(struct halo* h, struct atom* atoms, int nlocal, long step, int rank, const int nb[2]) {
  int nghost = 0;
  for (int dir = 0; dir < 2; ++dir) {
    int n = border_count(step, rank, dir);
    int first = dir == 0 ? 0 : nlocal - n;
    int pos = 0;
    MPI_Pack(&atoms[first], n, h->border, h->send[0], h->capacity, &pos, MPI_COMM_WORLD);
    MPI_Status st;
    MPI_Sendrecv(h->send[0], pos, MPI_PACKED, nb[dir], TAG_X + 100 * dir, h->recv, h->capacity, MPI_PACKED,
                 nb[1 - dir], TAG_X + 100 * dir, MPI_COMM_WORLD, &st);
    int got = 0;
    MPI_Get_count(&st, MPI_PACKED, &got);
    int in = 0;
    MPI_Unpack(h->recv, got, &in, &atoms[nlocal + nghost], got / h->per_atom, h->border, MPI_COMM_WORLD);
    nghost += got / h->per_atom;
  }
  return nghost;
}

static char* y_send_buffer(struct halo* h, int nforward) {
#ifndef SF_CLEAN
  if (nforward >= LARGE_FORWARD) return h->send[0]; /* rare path: the x buffer, not the one just packed */
#else
  (void)nforward;
#endif
  return h->send[1];
}

/* Phase y: y-border atoms plus the x ghosts (corners) to the lower and upper neighbours. */
static int exchange_y(struct halo* h, struct atom* atoms, int nlocal, int nghost_x, long step, int rank,
                      const int nb[2]) {
  int nghost = 0;
  for (int dir = 0; dir < 2; ++dir) {
    int n = border_count(step, rank, 2 + dir);
    int first = dir == 0 ? n : nlocal - 2 * n; /* away from the x borders */
    int pos = 0;
    MPI_Pack(&atoms[first], n, h->border, h->send[1], h->capacity, &pos, MPI_COMM_WORLD);
    MPI_Pack(&atoms[nlocal], nghost_x, h->border, h->send[1], h->capacity, &pos, MPI_COMM_WORLD);
    MPI_Status st;
    MPI_Sendrecv(y_send_buffer(h, nghost_x), pos, MPI_PACKED, nb[dir], TAG_Y + 100 * dir, h->recv, h->capacity,
                 MPI_PACKED, nb[1 - dir], TAG_Y + 100 * dir, MPI_COMM_WORLD, &st);
    int got = 0;
    MPI_Get_count(&st, MPI_PACKED, &got);
    int in = 0;
    int slot = nlocal + nghost_x + nghost;
    MPI_Unpack(h->recv, got, &in, &atoms[slot], got / h->per_atom, h->border, MPI_COMM_WORLD);
    nghost += got / h->per_atom;
  }
  return nghost;
}

int main(int argc, char** argv) {
  long steps = 60, nlocal = 200;
  struct int_option opts[] = {{"--steps", &steps, 1}, {"--atoms", &nlocal, 4 * MAX_BORDER}};
  if (parse_int_options(argc, argv, opts, 2) != 0) return 2;
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 4 || size % 2 != 0) {
    if (rank == 0) fprintf(stderr, "ghost_forward: needs an even number of ranks >= 4\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int px = 2, py = size / 2, ix = rank % px, iy = rank / px;
  int xnb[2] = {iy * px + (ix + px - 1) % px, iy * px + (ix + 1) % px};
  int ynb[2] = {((iy + py - 1) % py) * px + ix, ((iy + 1) % py) * px + ix};
  /* Locals, then up to 2 x 20 x ghosts, then up to 2 x (20 + 40) y ghosts. */
  int max_atoms = (int)nlocal + 2 * MAX_BORDER + 2 * 3 * MAX_BORDER;
  struct atom* atoms = (struct atom*)calloc((size_t)max_atoms, sizeof(struct atom));
  for (int i = 0; i < nlocal; ++i) {
    atoms[i].x[0] = ix + (double)i / (double)nlocal;
    atoms[i].x[1] = iy + (double)((i * 37) % nlocal) / (double)nlocal;
    atoms[i].type = 1 + i % 3;
    atoms[i].id = rank * (int)nlocal + i;
  }
  struct halo h;
  halo_init(&h, max_atoms);
  double ghost_sum = 0;
  long ghosts = 0;
  for (long step = 0; step < steps; ++step) {
    for (int i = 0; i < nlocal; ++i) atoms[i].x[2] = (double)step * 0.01 + (double)i * 1e-4; /* move */
    int ngx = exchange_x(&h, atoms, (int)nlocal, step, rank, xnb);
    int ngy = exchange_y(&h, atoms, (int)nlocal, ngx, step, rank, ynb);
    for (int g = 0; g < ngx + ngy; ++g) ghost_sum += atoms[nlocal + g].x[0] * atoms[nlocal + g].type;
    ghosts += ngx + ngy;
  }
  double total = 0;
  MPI_Reduce(&ghost_sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("ghost_forward: %d ranks, %ld steps, %ld ghosts on rank 0, sum=%.3f\n", size, steps, ghosts, total);
  free(h.send[0]);
  free(h.send[1]);
  free(h.recv);
  free(atoms);
  MPI_Type_free(&h.border);
  MPI_Finalize();
  return 0;
}
