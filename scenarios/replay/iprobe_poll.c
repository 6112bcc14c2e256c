/* An MPI_Iprobe polling loop (issue 29): rank 0 polls
 * MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG) between slices of its own work
 * and receives what it finds; workers send --items data messages (tag 1)
 * and then one "done" message (tag 2). The bug: the loop stops at the first
 * "done" it sees, as if every worker had finished ("if (tag == DONE)
 * break;"), so data of slower workers is left unreceived and the total
 * falls short whenever a worker finishes before another's data is in. The
 * unreceived messages are drained after the check (so the run ends).
 * --safe: the loop counts "done" messages up to the number of workers.
 * Outcome: exit 1 with "wrong result" when the total is short. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kTagData = 1, kTagDone = 2 };

int main(int argc, char** argv) {
  int items = 6, safe = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--safe") == 0) safe = 1;
    else if (strcmp(argv[i], "--items") == 0 && i + 1 < argc) items = atoi(argv[++i]);
  }
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank != 0) {
    for (int k = 0; k < items; ++k) {
      usleep((useconds_t)(80 * rank + 40 * (k % 3)));
      int v = rank * 100 + k;
      MPI_Send(&v, 1, MPI_INT, 0, kTagData, MPI_COMM_WORLD);
    }
    int none = 0;
    MPI_Send(&none, 1, MPI_INT, 0, kTagDone, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  }
  long total = 0, expected = 0;
  for (int w = 1; w < size; ++w)
    for (int k = 0; k < items; ++k) expected += w * 100 + k;
  int done = 0, received = 0;
  int* finished = calloc((size_t)size, sizeof(int));
  for (;;) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag) continue; /* a slice of the master's own work would go here */
    int v;
    MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (st.MPI_TAG == kTagDone) {
      finished[st.MPI_SOURCE] = 1;
      ++done;
      if (!safe) break; /* BUG: the first worker done is not every worker done */
      if (done == size - 1) break;
      continue;
    }
    total += v;
    ++received;
  }
  const int short_by = (int)(expected != total);
  printf("iprobe_poll: %d items received, total %ld of %ld\n", received, total, expected);
  if (short_by) fprintf(stderr, "wrong result: the polling loop stopped with data unreceived\n");
  /* Drain what the loop left (each worker's data before its done). */
  for (int w = 1; w < size; ++w) {
    if (finished[w]) continue;
    for (;;) {
      int v;
      MPI_Status st;
      MPI_Recv(&v, 1, MPI_INT, w, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      if (st.MPI_TAG == kTagDone) break;
    }
  }
  free(finished);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return short_by ? 1 : 0;
}
