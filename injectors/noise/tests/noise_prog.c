/* Programs for the noise MPI tests (injectors/noise/tests/noise_mpi_test.cpp).
 *   exchange: ring, ping-pong, ordered bursts, Test loops, Sendrecv; every rank
 *             blocks in Recv/Wait while its own send may be delayed. Prints a
 *             checksum on rank 0; exits 1 on a wrong or reordered value.
 *   sets:     (3 ranks) rank 0 sends tag 5 to rank 1, computes 3 ms, sends tag
 *             5 to rank 2 (two send sets of one message id in one epoch), then
 *             after a barrier tag 9 to rank 1 (one set: safe).
 *   big:      rank 0's first send is 4096 bytes to rank 1, then 8 bytes.
 *   race:     (3 ranks) an unsafe pair of routines: ranks 0 and 1 send
 *             routine A then, after 60 ms / 20 ms of work, routine B to rank
 *             2 with one tag (rank 1 starts when rank 0 has posted A); rank 2
 *             receives A, A, B, B from MPI_ANY_SOURCE. Quiet runs match correctly; a routine
 *             B message matched by a routine A receive prints "race exposed".
 *   eager:    (2 ranks) rank 0 sends rank 1 an int (MPI_Isend), 70,000 bytes
 *             (MPI_Isend) and an int (MPI_Issend), tests each request once
 *             right after posting it, then overwrites the buffers and
 *             waits for all three with MPI_Waitall (the first request now
 *             MPI_REQUEST_NULL beside two pending deferred sends: MPICH
 *             4.0.2 asserts there unless the recorder works around it); rank
 *             1 checks the values. Prints "completed at once: small S large L
 *             synchronous Y" and "payload ok" or "payload changed".
 *   pingpong N: N round trips of 8 bytes between ranks 0 and 1; rank 0
 *             prints microseconds per round trip (overhead measurements). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static void compute(double seconds) {
  double end = now_s() + seconds;
  while (now_s() < end) {
  }
}

typedef int (*blocking_send)(const void*, int, MPI_Datatype, int, int, MPI_Comm);

/* One int each way with `partner`, the even rank sending first: each side
 * blocks in Recv for the reply to a send that may be delayed. */
static void ping_pong(blocking_send send, int rank, int partner, int tag, int out, int* in) {
  if (rank % 2 == 0) send(&out, 1, MPI_INT, partner, tag, MPI_COMM_WORLD);
  MPI_Recv(in, 1, MPI_INT, partner, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank % 2 != 0) send(&out, 1, MPI_INT, partner, tag, MPI_COMM_WORLD);
}

static int exchange(int rank, int n) {
  int right = (rank + 1) % n, left = (rank + n - 1) % n, bad = 0;
  long sum = 0;
  /* Isend to the right, block in Recv from the left, then Wait. */
  int out = 100 + rank, in = -1;
  MPI_Request r;
  MPI_Isend(&out, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &r);
  MPI_Recv(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  bad |= r != MPI_REQUEST_NULL || in != 100 + left;
  sum += in;
  /* Ping-pong with blocking sends: each side blocks in Recv for the reply to
   * a send that may be delayed. */
  int partner = rank ^ 1, v = rank * 7;
  if (partner < n) {
    ping_pong(MPI_Send, rank, partner, 2, v, &in);
    bad |= in != partner * 7;
    sum += in;
  }
  /* A burst of 8 same-tag messages: non-overtaking keeps their order. */
  enum { K = 8 };
  int seq[K], got[K];
  MPI_Request rs[K];
  for (int k = 0; k < K; ++k) {
    seq[k] = rank * 1000 + k;
    MPI_Isend(&seq[k], 1, MPI_INT, right, 3, MPI_COMM_WORLD, &rs[k]);
  }
  for (int k = 0; k < K; ++k) {
    MPI_Recv(&got[k], 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad |= got[k] != left * 1000 + k;
    sum += got[k];
  }
  MPI_Waitall(K, rs, MPI_STATUSES_IGNORE);
  /* Test loop on a send: "not complete" until it is, never a false "done". */
  int flag = 0, tv = 5 + rank, tin = -1;
  MPI_Request ts[2];
  MPI_Irecv(&tin, 1, MPI_INT, left, 4, MPI_COMM_WORLD, &ts[0]);
  MPI_Isend(&tv, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &ts[1]);
  while (!flag) MPI_Testall(2, ts, &flag, MPI_STATUSES_IGNORE);
  bad |= tin != 5 + left;
  sum += tin;
  /* Waitany, Testsome and Request_free on (possibly deferred) sends. */
  int wv[3] = {rank, rank + 1, rank + 2}, wr[3] = {-1, -1, -1};
  MPI_Request wq[3];
  for (int k = 0; k < 3; ++k) MPI_Isend(&wv[k], 1, MPI_INT, right, 10 + k, MPI_COMM_WORLD, &wq[k]);
  for (int k = 0; k < 3; ++k) MPI_Recv(&wr[k], 1, MPI_INT, left, 10 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int idx = 0, outcount = 0, indices[3];
  MPI_Waitany(3, wq, &idx, MPI_STATUS_IGNORE);
  bad |= idx < 0 || idx > 2 || wq[idx] != MPI_REQUEST_NULL;
  for (int left_open = 2; left_open > 0;) {
    MPI_Testsome(3, wq, &outcount, indices, MPI_STATUSES_IGNORE);
    if (outcount != MPI_UNDEFINED) left_open -= outcount;
  }
  for (int k = 0; k < 3; ++k) {
    bad |= wq[k] != MPI_REQUEST_NULL || wr[k] != left + k;
    sum += wr[k];
  }
  int fv = 42 + rank, fin = -1;
  MPI_Request fq;
  MPI_Isend(&fv, 1, MPI_INT, right, 13, MPI_COMM_WORLD, &fq);
  MPI_Request_free(&fq);
  MPI_Recv(&fin, 1, MPI_INT, left, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  bad |= fq != MPI_REQUEST_NULL || fin != 42 + left;
  sum += fin;
  /* Rendezvous-size ring (1 MiB) and synchronous sends: the deferred send
   * needs the peer's receive to progress while this rank blocks in Recv. */
  static int big_out[1 << 18], big_in[1 << 18];
  for (int k = 0; k < (1 << 18); ++k) big_out[k] = rank + k;
  MPI_Request br;
  MPI_Isend(big_out, 1 << 18, MPI_INT, right, 14, MPI_COMM_WORLD, &br);
  MPI_Recv(big_in, 1 << 18, MPI_INT, left, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&br, MPI_STATUS_IGNORE);
  bad |= big_in[0] != left || big_in[(1 << 18) - 1] != left + (1 << 18) - 1;
  sum += big_in[12345] - 12345;
  int so = rank, si = -1;
  if (partner < n) {
    ping_pong(MPI_Ssend, rank, partner, 15, so, &si);
    bad |= si != partner;
    sum += si;
  }
  /* Sendrecv (never delayed) after delayed sends on the same channel. */
  int sv = rank, sin = -1;
  MPI_Sendrecv(&sv, 1, MPI_INT, right, 6, &sin, 1, MPI_INT, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  bad |= sin != left;
  sum += sin;
  long total = 0;
  int anybad = 0;
  MPI_Allreduce(&sum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (rank == 0) printf("checksum %ld %s\n", total, anybad ? "BAD" : "ok");
  return anybad;
}

static int sets(int rank) {
  int v = 1, in = 0;
  if (rank == 0) {
    MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    compute(0.003);
    MPI_Request r;
    MPI_Isend(&v, 1, MPI_INT, 2, 5, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else if (rank <= 2) {
    MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) MPI_Send(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
  if (rank == 1) MPI_Recv(&in, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("sets done\n");
  return 0;
}

static int big(int rank) {
  static char buf[4096];
  if (rank == 0) {
    memset(buf, 'x', sizeof buf);
    MPI_Send(buf, sizeof buf, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
    MPI_Send(buf, 8, MPI_CHAR, 1, 2, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(buf, sizeof buf, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(buf, 8, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (buf[4095] != 'x') return 1;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return 0;
}

static int race(int rank) {
  char mine[2] = {'A', 'B'}, got = 0;
  int wrong = 0, total = 0, go = 1;
  if (rank == 0) {
    /* Rank 1 starts only after rank 0 posted routine A: quiet runs match
     * deterministically. */
    MPI_Request r;
    MPI_Isend(&mine[0], 1, MPI_CHAR, 2, 7, MPI_COMM_WORLD, &r);
    MPI_Send(&go, 1, MPI_INT, 1, 8, MPI_COMM_WORLD);
    compute(0.060);
    MPI_Send(&mine[1], 1, MPI_CHAR, 2, 7, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(&go, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&mine[0], 1, MPI_CHAR, 2, 7, MPI_COMM_WORLD);
    compute(0.020);
    MPI_Send(&mine[1], 1, MPI_CHAR, 2, 7, MPI_COMM_WORLD);
  } else if (rank == 2) {
    for (int k = 0; k < 4; ++k) {
      MPI_Recv(&got, 1, MPI_CHAR, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      wrong += got != (k < 2 ? 'A' : 'B');
    }
  }
  MPI_Allreduce(&wrong, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(total ? "race exposed\n" : "race ok\n");
  return 0;
}

static int eager(int rank) {
  enum { kLarge = 70000 };
  static char large[kLarge];
  int small = 41, sync = 43, flags[3] = {0, 0, 0};
  if (rank == 0) {
    MPI_Request reqs[3];
    memset(large, 7, sizeof large);
    MPI_Isend(&small, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &reqs[0]);
    MPI_Test(&reqs[0], &flags[0], MPI_STATUS_IGNORE);
    MPI_Isend(large, kLarge, MPI_CHAR, 1, 2, MPI_COMM_WORLD, &reqs[1]);
    MPI_Test(&reqs[1], &flags[1], MPI_STATUS_IGNORE);
    MPI_Issend(&sync, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &reqs[2]);
    MPI_Test(&reqs[2], &flags[2], MPI_STATUS_IGNORE);
    if (flags[0]) small = -1; /* the send is complete: its buffer is the program's again */
    MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
    printf("completed at once: small %d large %d synchronous %d\n", flags[0], flags[1], flags[2]);
    fflush(stdout);
  } else {
    int got_small = 0, got_sync = 0;
    MPI_Recv(&got_small, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(large, kLarge, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&got_sync, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const int ok = got_small == 41 && got_sync == 43 && large[0] == 7 && large[kLarge - 1] == 7;
    printf("payload %s\n", ok ? "ok" : "changed");
    fflush(stdout);
  }
  return 0;
}

static int pingpong(int rank, int iters) {
  char b[8] = {0};
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now_s();
  for (int i = 0; i < iters; ++i) {
    if (rank == 0) {
      MPI_Send(b, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(b, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(b, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(b, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    }
  }
  if (rank == 0) printf("pingpong %.2f us per round trip\n", (now_s() - t0) / iters * 1e6);
  return 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, n, rc = 2;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (argc > 1 && strcmp(argv[1], "exchange") == 0) rc = exchange(rank, n);
  else if (argc > 1 && strcmp(argv[1], "sets") == 0) rc = sets(rank);
  else if (argc > 1 && strcmp(argv[1], "big") == 0) rc = big(rank);
  else if (argc > 1 && strcmp(argv[1], "race") == 0) rc = race(rank);
  else if (argc > 1 && strcmp(argv[1], "eager") == 0) rc = eager(rank);
  else if (argc > 2 && strcmp(argv[1], "pingpong") == 0) rc = pingpong(rank, atoi(argv[2]));
  MPI_Finalize();
  return rc;
}
