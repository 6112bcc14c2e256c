/* Programs for the decision-log and replay tests (replay_test.cpp). Each
 * prints what its wildcard matches and polls decided, so two runs that
 * decided alike print the same lines.
 *   race N     rank 0 takes N messages from every other rank with blocking
 *              MPI_Recv(MPI_ANY_SOURCE, MPI_ANY_TAG) on a communicator of
 *              their own, then N each through Irecv(ANY_SOURCE) + Waitany,
 *              an Iprobe(ANY_SOURCE) polling loop and Irecv(ANY_SOURCE) +
 *              Testsome; prints the order.
 *   wtime      rank 0 receives first and sends after when MPI_Wtime says the
 *              start was quick (less than 100 ms after a sleep of
 *              REPLAY_TEST_SLEEP_US), else sends first: a timing-dependent
 *              branch a replay reports as a divergence. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void race(int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int total = n * (size - 1);
  MPI_Comm first; /* phase 0 alone: its receives take any tag */
  MPI_Comm_dup(MPI_COMM_WORLD, &first);
  if (rank != 0) {
    for (int phase = 0; phase < 4; ++phase)
      for (int i = 0; i < n; ++i) {
        int v = rank * 1000 + phase * 100 + i;
        if (rank % 2 == 0) usleep(50);
        MPI_Send(&v, 1, MPI_INT, 0, phase == 0 ? i % 3 : phase, phase == 0 ? first : MPI_COMM_WORLD);
      }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&first);
    return;
  }
  int v;
  MPI_Status st;
  printf("blocking:");
  for (int i = 0; i < total; ++i) {
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, first, &st);
    printf(" %d/%d", v, st.MPI_TAG);
  }
  printf("\nwaitany:");
  MPI_Request r[4];
  int buf[4];
  for (int k = 0; k < 4; ++k) MPI_Irecv(&buf[k], 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &r[k]);
  for (int got = 0; got < total; ++got) {
    int idx;
    MPI_Waitany(4, r, &idx, &st);
    printf(" %d@%d", buf[idx], idx);
    if (got + 4 < total) MPI_Irecv(&buf[idx], 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &r[idx]);
  }
  printf("\niprobe:");
  for (int got = 0; got < total;) {
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &flag, &st);
    if (!flag) continue;
    MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf(" %d", v);
    ++got;
  }
  printf("\ntestsome:");
  MPI_Request t[2];
  int tb[2], idx[2], out;
  for (int k = 0; k < 2; ++k) MPI_Irecv(&tb[k], 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &t[k]);
  for (int got = 0; got < total;) {
    MPI_Testsome(2, t, &out, idx, MPI_STATUSES_IGNORE);
    if (out == MPI_UNDEFINED) break;
    for (int k = 0; k < out; ++k) {
      printf(" %d", tb[idx[k]]);
      ++got;
      if (got + 1 < total) MPI_Irecv(&tb[idx[k]], 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &t[idx[k]]);
    }
  }
  printf("\n");
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm_free(&first);
}

static void wtime(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int v = rank;
  if (rank != 0) {
    MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return;
  }
  const char* s = getenv("REPLAY_TEST_SLEEP_US");
  double t0 = MPI_Wtime();
  usleep(s != NULL ? (useconds_t)atoi(s) : 0);
  int quick = MPI_Wtime() - t0 < 0.1;
  if (quick) {
    for (int i = 1; i < size; ++i) MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 1; i < size; ++i) MPI_Send(&v, 1, MPI_INT, i, 2, MPI_COMM_WORLD);
  } else {
    for (int i = 1; i < size; ++i) MPI_Send(&v, 1, MPI_INT, i, 2, MPI_COMM_WORLD);
    for (int i = 1; i < size; ++i) MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  printf("%s\n", quick ? "quick" : "slow");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc > 1 && strcmp(argv[1], "race") == 0) race(argc > 2 ? atoi(argv[2]) : 20);
  if (argc > 1 && strcmp(argv[1], "wtime") == 0) wtime();
  MPI_Finalize();
  return 0;
}
