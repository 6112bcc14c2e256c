/*
 * sf_pblas — a library-like broadcast in the style of ScaLAPACK's BLACS
 * (libsf_pblas.so, used by dense_panel_bcast.c). Like BLACS and MPICH, it
 * picks its topology by the communicator size, by design:
 *   size <= SF_PBCAST_TREE_MAX (5): binomial tree (log2 p rounds);
 *   larger:                         pipelined ring (the message in
 *                                   SF_PBCAST_SEGMENTS segments, passed
 *                                   from each rank to the next).
 * Every rank receives the message once in both; a rank's sends depend on
 * its place in the tree or ring. The stacks of the MPI calls inside differ
 * between the two, so a scale sweep that trains at <= 5 ranks and tests at
 * 6 and 8 sees call sites at the test scales that no training run had.
 */
#include "sf_pblas.h"

#define SF_PBCAST_TREE_MAX 5
#define SF_PBCAST_SEGMENTS 4
#define NOINLINE __attribute__((noinline))

static NOINLINE void bcast_binomial(double* buf, int count, int root, MPI_Comm comm, int rank, int size) {
  const int rel = (rank - root + size) % size;
  int mask = 1;
  while (mask < size) { /* receive from the parent */
    if (rel & mask) {
      MPI_Recv(buf, count, MPI_DOUBLE, (rank - mask + size) % size, 71, comm, MPI_STATUS_IGNORE);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1) /* send to the children */
    if (rel + mask < size) MPI_Send(buf, count, MPI_DOUBLE, (rank + mask) % size, 71, comm);
}

static NOINLINE void bcast_ring(double* buf, int count, int root, MPI_Comm comm, int rank, int size) {
  const int rel = (rank - root + size) % size;
  const int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
  const int seg = (count + SF_PBCAST_SEGMENTS - 1) / SF_PBCAST_SEGMENTS;
  for (int off = 0; off < count; off += seg) {
    const int n = count - off < seg ? count - off : seg;
    if (rel != 0) MPI_Recv(buf + off, n, MPI_DOUBLE, prev, 72, comm, MPI_STATUS_IGNORE);
    if (rel != size - 1) MPI_Send(buf + off, n, MPI_DOUBLE, next, 72, comm);
  }
}

void sf_pbcast(double* buf, int count, int root, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (size <= SF_PBCAST_TREE_MAX)
    bcast_binomial(buf, count, root, comm, rank, size);
  else
    bcast_ring(buf, count, root, comm, rank, size);
}
