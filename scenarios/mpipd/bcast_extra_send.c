/* bcast_extra_send — a hand-made broadcast whose root sends one message too
 * many with a buffered send (MPI-PD case study 2: "the root process of a
 * broadcast operation called an excessive Send due to the lack of a break").
 *
 * Each round the root (rank 0) broadcasts a header (the item count) and
 * --items items to every worker with MPI_Bsend, then collects one result per
 * worker with MPI_Recv in rank order; a worker receives the header and the
 * items, and sends back their sum. All messages use one tag. The bug: in
 * round 0 the root sends the victim one extra item. MPI_Bsend returns at once,
 * so nothing fails there: in round 1 the victim reads the stale item as its
 * header (a count of 1000+), receives the real header and items as items and
 * blocks waiting for more, while the root blocks waiting for its result. The
 * failure shows up a round later, far from the faulty send.
 *
 * Arguments: --rounds N (default 3, >= 2), --items N (default 3), --victim V
 * (default 1).
 * Scales: >= 2 ranks; hangs deterministically at every scale.
 * Expected: outcome hang. MPI-PD: situation deadlock, faulty processes
 * {0, V} (the root waits on V's result, V waits on the root's items); the
 * other workers, blocked waiting for the next round's header (or in the
 * final MPI_Barrier when --rounds is 2), are propagated.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../spine/common_args.h"

static void root_broadcast(int size, long round, long items, long victim) {
  int header = (int)items;
  for (int dst = 1; dst < size; ++dst) {
    MPI_Bsend(&header, 1, MPI_INT, dst, 21, MPI_COMM_WORLD);
    for (long i = 0; i <= items; ++i) {
      /* BUG: "<=" sends one item too many; only round 0 to the victim
       * reaches it (the missing "break" of the paper's program). */
      if (i == items && !(round == 0 && dst == victim)) break;
      int item = (int)(1000 + i);
      MPI_Bsend(&item, 1, MPI_INT, dst, 21, MPI_COMM_WORLD);
    }
  }
}

static int worker_receive(void) {
  int header = 0, sum = 0;
  MPI_Recv(&header, 1, MPI_INT, 0, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < header; ++i) {
    int item = 0;
    MPI_Recv(&item, 1, MPI_INT, 0, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sum += item;
  }
  return sum;
}

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  scenario_init(&argc, &argv, &rank, &size);
  long rounds = 3, items = 3, victim = 1;
  struct int_option opts[] = {{"--rounds", &rounds, 2}, {"--items", &items, 1}, {"--victim", &victim, 1}};
  if (parse_int_options(argc, argv, opts, 3) != 0 || size < 2 || victim >= size) {
    if (rank == 0) fprintf(stderr, "bcast_extra_send: needs >= 2 ranks and 0 < --victim < %d\n", size);
    MPI_Finalize();
    return 2;
  }
  const int per_round = (int)(size * (items + 3));
  const int bytes = (int)(rounds * per_round) * (int)(sizeof(int) + MPI_BSEND_OVERHEAD);
  void* pool = malloc((size_t)bytes);
  MPI_Buffer_attach(pool, bytes);
  for (long round = 0; round < rounds; ++round) {
    if (rank == 0) {
      root_broadcast(size, round, items, victim);
      for (int src = 1; src < size; ++src) {
        int sum = 0;
        MPI_Recv(&sum, 1, MPI_INT, src, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    } else {
      int sum = worker_receive();
      MPI_Send(&sum, 1, MPI_INT, 0, 21, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("bcast_extra_send: done\n");
  MPI_Buffer_detach(&pool, &(int){0});
  free(pool);
  MPI_Finalize();
  return 0;
}
