/* writer_nomination — buffered parallel I/O with nominated writer tasks and
 * one compile-time message tag, modelled on the ddcMD "pio" hang of the
 * AutomaDeD paper (§5.1): it hangs only at some rank counts.
 *
 * pio splits the ranks into I/O groups of 2 consecutive ranks (a trailing
 * single rank joins the previous group). The platform forwards I/O through
 * I/O nodes (IONs) of 3 consecutive ranks, n/3 IONs in all, and pio
 * nominates one writer per ION, the ION's last rank: group g is written by
 * the writer of ION (g mod n/3). A writer collects every member's buffer:
 * it sends a request, then receives the buffer size and the buffer. To free
 * other writers early it serves members that are writers themselves first.
 * A task can play dual roles: non-writer of its own group and writer of
 * another. While a writer waits for a member's reply it polls with
 * MPI_Iprobe(MPI_ANY_SOURCE) and serves its own writer's request early when
 * that arrives first (the performance logic of the paper's Figure 6).
 *
 * The bug: request, size and buffer all travel with the same tag. When two
 * dual tasks write for each other's groups (ranks 2 and 5 at 6, 7 and 8
 * ranks), each one's first message from the other is the other's REQUEST,
 * and the probe, which tells replies from requests by source only, takes it
 * for the buffer SIZE: both then block in MPI_Recv for a buffer the other
 * will never send. With one tag per message kind the request would be told
 * apart and served early.
 *
 * Arguments: --instances N pio flushes in a row (default 2: a large data set
 * then a small one), --large N ints (default 256), --small N ints
 * (default 8), --distinct-tags 1 for the clean twin (requests get their own
 * tag; checked to complete at 2-8 ranks).
 * Scales: completes at 2-5 ranks (one ION, no dual task); hangs
 * deterministically at 6, 7 and 8 ranks (larger sizes not checked).
 * Expected at 6-8 ranks: outcome hang. Ranks 2 and 5 block in the MPI_Recv
 * of the buffer in collect_from() (called from pio_flush()); the other ranks
 * block in the MPI_Recv of their writer's request in serve_writer().
 * MPI-PD: situation deadlock, faulty processes {2, 5}. PDG: ranks 2 and 5
 * (the dual writers) are the least-progressed tasks the others depend on.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../spine/common_args.h"

enum { kIoGroup = 2, kIonSize = 3, kTagPio = 99 /* BUG: one tag for REQ, SIZE and DATA */ };
static int tag_request = kTagPio; /* the clean twin (--distinct-tags 1) uses its own tag */

static int group_of(int rank, int size) {
  int groups = size / kIoGroup > 0 ? size / kIoGroup : 1;
  int g = rank / kIoGroup;
  return g < groups ? g : groups - 1;
}

static int writer_of_group(int g, int size) {
  int ions = size / kIonSize > 0 ? size / kIonSize : 1;
  int w = (g % ions) * kIonSize + (kIonSize - 1);
  return w < size ? w : size - 1;
}

/* Non-writer duty: answer my writer's request with the size and the buffer. */
static void serve_writer(int writer, const int* data, int count) {
  int request = 0;
  MPI_Recv(&request, 1, MPI_INT, writer, tag_request, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(&count, 1, MPI_INT, writer, kTagPio, MPI_COMM_WORLD);
  MPI_Send(data, count, MPI_INT, writer, kTagPio, MPI_COMM_WORLD);
}

/* Writer duty for one member; while waiting, serve my own writer early. One
 * probe for any message decides by source and tag: the member's reply, my
 * writer's request, or something for later (then just wait for the member). */
static void collect_from(int member, int my_writer, int* served, const int* data, int count, int* inbox) {
  const int request = 1;
  MPI_Send(&request, 1, MPI_INT, member, tag_request, MPI_COMM_WORLD);
  for (;;) {
    int pending = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &pending, &status);
    if (!pending) continue;
    if (status.MPI_SOURCE == member && status.MPI_TAG == kTagPio) break; /* the SIZE, or so it seems */
    if (status.MPI_SOURCE == my_writer && status.MPI_TAG == tag_request && !*served) {
      serve_writer(my_writer, data, count);
      *served = 1;
      continue;
    }
    MPI_Probe(member, kTagPio, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* a message for later */
    break;
  }
  int incoming = 0;
  MPI_Recv(&incoming, 1, MPI_INT, member, kTagPio, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(inbox, incoming, MPI_INT, member, kTagPio, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* One pio flush of `count` ints per task. */
static void pio_flush(int rank, int size, const int* data, int count, int* inbox) {
  const int my_writer = writer_of_group(group_of(rank, size), size);
  int served = my_writer == rank;
  int members[64], nmembers = 0;
  for (int pass = 0; pass < 2; ++pass) /* members that are writers first */
    for (int m = 0; m < size && nmembers < 64; ++m) {
      if (m == rank || writer_of_group(group_of(m, size), size) != rank) continue;
      int m_writes = 0;
      for (int g = 0; g <= group_of(size - 1, size); ++g) m_writes |= writer_of_group(g, size) == m;
      if ((pass == 0) == (m_writes != 0)) members[nmembers++] = m;
    }
  for (int k = 0; k < nmembers; ++k) collect_from(members[k], my_writer, &served, data, count, inbox);
  if (!served) serve_writer(my_writer, data, count);
}

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  scenario_init(&argc, &argv, &rank, &size);
  long instances = 2, large = 256, small = 8, distinct_tags = 0;
  struct int_option opts[] = {{"--instances", &instances, 1}, {"--large", &large, 1}, {"--small", &small, 1},
                                   {"--distinct-tags", &distinct_tags, 0}};
  if (parse_int_options(argc, argv, opts, 4) != 0 || size > 64) {
    if (rank == 0 && size > 64) fprintf(stderr, "writer_nomination: at most 64 ranks\n");
    MPI_Finalize();
    return 2;
  }
  if (distinct_tags) tag_request = kTagPio - 1;
  const long most = large > small ? large : small;
  int* data = malloc((size_t)most * sizeof(int));
  int* inbox = malloc((size_t)(most > 1000 ? most : 1000) * sizeof(int));
  for (long i = 0; i < most; ++i) data[i] = (int)(rank * 100000 + i);
  for (long k = 0; k < instances; ++k) pio_flush(rank, size, data, (int)(k == 0 ? large : small), inbox);
  MPI_Barrier(MPI_COMM_WORLD); /* pio close */
  if (rank == 0) printf("writer_nomination: %ld flushes done\n", instances);
  free(data);
  free(inbox);
  MPI_Finalize();
  return 0;
}
