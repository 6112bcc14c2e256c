/* MPI programs whose recorded traces the injector tests check. Usage:
 *   inject_scenarios p2p|more|threads|coll|comm|sites|callers|truncate|loop|eager|poll|heap|guard|rma [iterations]
 * Rank 0 prints deterministic results, so output with and without the
 * injector can be compared. Compiled at -O0 so every call has its own line. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int rank, size;

static void p2p(void) {
  int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  long check = 0;
  /* 1. blocking ring, one int */
  int token = rank * 10, got = -1;
  if (rank % 2 == 0) {
    MPI_Send(&token, 1, MPI_INT, right, 1, MPI_COMM_WORLD);
    MPI_Recv(&got, 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&got, 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&token, 1, MPI_INT, right, 1, MPI_COMM_WORLD);
  }
  check += got;
  /* 2. nonblocking ring, 8 doubles */
  double out[8], in[8];
  for (int i = 0; i < 8; ++i) out[i] = rank + i;
  MPI_Request rq[2];
  MPI_Irecv(in, 8, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(out, 8, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &rq[1]);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  check += (long)in[7];
  /* 3. persistent ring, 4 ints: 3 x Startall + 1 x Start/Wait each */
  int pout[4], pin[4];
  MPI_Request pr[2];
  MPI_Recv_init(pin, 4, MPI_INT, left, 3, MPI_COMM_WORLD, &pr[0]);
  MPI_Send_init(pout, 4, MPI_INT, right, 3, MPI_COMM_WORLD, &pr[1]);
  for (int it = 0; it < 3; ++it) {
    for (int i = 0; i < 4; ++i) pout[i] = rank + it;
    MPI_Startall(2, pr);
    MPI_Waitall(2, pr, MPI_STATUSES_IGNORE);
    check += pin[0];
  }
  MPI_Start(&pr[0]);
  MPI_Start(&pr[1]);
  MPI_Wait(&pr[1], MPI_STATUS_IGNORE);
  MPI_Wait(&pr[0], MPI_STATUS_IGNORE);
  MPI_Request_free(&pr[0]);
  MPI_Request_free(&pr[1]);
  /* 4. Sendrecv ring, 2 ints */
  int sr_out[2] = {rank, rank}, sr_in[2];
  MPI_Sendrecv(sr_out, 2, MPI_INT, right, 4, sr_in, 2, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  check += sr_in[0];
  /* 5. wildcard gather at 0 with Probe */
  if (rank == 0) {
    for (int k = 1; k < size; ++k) {
      MPI_Status st;
      int v;
      MPI_Probe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
      MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      check += v;
    }
  } else {
    MPI_Send(&rank, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
  }
  /* 6. Mprobe / Mrecv from rank 1 */
  if (rank == 0) {
    MPI_Message msg;
    MPI_Status st;
    int v[3];
    MPI_Mprobe(MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv(v, 3, MPI_INT, &msg, MPI_STATUS_IGNORE);
    check += v[2];
  } else if (rank == 1) {
    int v[3] = {7, 8, 9};
    MPI_Ssend(v, 3, MPI_INT, 0, 6, MPI_COMM_WORLD);
  }
  /* 7. Test loop on rank 0, Iprobe loop too */
  if (rank == 0) {
    int v = 0, flag = 0;
    MPI_Request r;
    MPI_Irecv(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &r);
    while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    flag = 0;
    while (!flag) MPI_Iprobe(1, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    int w;
    MPI_Recv(&w, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check += v + w;
  } else if (rank == 1) {
    int v = 70, w = 90;
    MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    MPI_Send(&w, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
  }
  /* 8. Waitany + Waitsome at rank 0 over one message from every other rank */
  if (rank == 0) {
    int vals[64];
    MPI_Request rs[64];
    for (int k = 1; k < size; ++k) MPI_Irecv(&vals[k], 1, MPI_INT, k, 8, MPI_COMM_WORLD, &rs[k - 1]);
    int idx, outc, ids[64];
    MPI_Waitany(size - 1, rs, &idx, MPI_STATUS_IGNORE);
    int done = 1;
    while (done < size - 1) {
      MPI_Waitsome(size - 1, rs, &outc, ids, MPI_STATUSES_IGNORE);
      done += outc;
    }
    for (int k = 1; k < size; ++k) check += vals[k];
  } else {
    int v = 100 + rank;
    MPI_Send(&v, 1, MPI_INT, 0, 8, MPI_COMM_WORLD);
  }
  long total = 0;
  MPI_Reduce(&check, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("p2p checksum %ld\n", total);
}

static void coll(void) {
  int n = size;
  int x = rank + 1, sum = 0, prod = 0, scan = 0, exscan = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  int b = rank == 0 ? 42 : 0;
  MPI_Bcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Reduce(&x, &prod, 1, MPI_INT, MPI_PROD, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int* all = calloc((size_t)n * 4, sizeof(int));
  int* cnt = calloc((size_t)n, sizeof(int));
  int* dsp = calloc((size_t)n, sizeof(int));
  for (int i = 0; i < n; ++i) { cnt[i] = 1; dsp[i] = i; }
  MPI_Gather(&x, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gatherv(&x, 1, MPI_INT, all, cnt, dsp, MPI_INT, 0, MPI_COMM_WORLD);
  int sc = 0;
  MPI_Scatter(all, 1, MPI_INT, &sc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Scatterv(all, cnt, dsp, MPI_INT, &sc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Allgather(&x, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Allgatherv(&x, 1, MPI_INT, all, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
  int* a2a = calloc((size_t)n, sizeof(int));
  for (int i = 0; i < n; ++i) a2a[i] = rank * 100 + i;
  MPI_Alltoall(a2a, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoallv(a2a, cnt, dsp, MPI_INT, all, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
  int rsb = 0;
  MPI_Reduce_scatter_block(a2a, &rsb, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce_scatter(a2a, &rsb, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan(&x, &scan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(&x, &exscan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Request r[2];
  int isum = 0;
  MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
  MPI_Iallreduce(&x, &isum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  long local = sc + rsb + scan + exscan + isum, total = 0;
  MPI_Reduce(&local, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("coll bcast %d sum %d prod %d all[%d]=%d total %ld\n", b, sum, prod, n - 1, all[n - 1], total);
  free(all); free(cnt); free(dsp); free(a2a);
}

static void comm(void) {
  MPI_Comm half, dup, cart;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  int hr, hs;
  MPI_Comm_rank(half, &hr);
  MPI_Comm_size(half, &hs);
  int s = 0, one = 1;
  MPI_Allreduce(&one, &s, 1, MPI_INT, MPI_SUM, half);
  /* sub-comm rank 1 sends to sub-comm rank 0: peers must be world ranks */
  if (hs > 1) {
    int v = rank;
    if (hr == 1) MPI_Send(&v, 1, MPI_INT, 0, 11, half);
    if (hr == 0) MPI_Recv(&v, 1, MPI_INT, 1, 11, half, MPI_STATUS_IGNORE);
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Barrier(dup);
  int dims[1] = {0}, periods[1] = {1};
  MPI_Dims_create(size, 1, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  MPI_Barrier(cart);
  MPI_Comm none;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &none);
  if (none != MPI_COMM_NULL) MPI_Comm_free(&none);
  /* Only the even ranks create this one: ids of communicators created after
   * it must still agree on every member. */
  MPI_Group world_group, even_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int evens[64], ne = 0;
  for (int r = 0; r < size && ne < 64; r += 2) evens[ne++] = r;
  MPI_Group_incl(world_group, ne, evens, &even_group);
  MPI_Comm even = MPI_COMM_NULL, after;
  if (rank % 2 == 0) MPI_Comm_create_group(MPI_COMM_WORLD, even_group, 5, &even);
  MPI_Comm_dup(MPI_COMM_WORLD, &after);
  MPI_Barrier(after);
  if (even != MPI_COMM_NULL) MPI_Comm_free(&even);
  MPI_Comm_free(&after);
  MPI_Group_free(&even_group);
  MPI_Group_free(&world_group);
  MPI_Comm_free(&cart);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&half);
  if (rank == 0) printf("comm half-size %d\n", s);
}

/* The remaining wrapper families: Sendrecv_replace, cancel, matched
 * nonblocking probe/receive, Test{all,any,some} loops, Comm_create /
 * Comm_split_type, nonblocking collectives, Request_free of an active send. */
static void more(void) {
  int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  long check = 0;
  int rep[2] = {rank, rank * 2};
  MPI_Sendrecv_replace(rep, 2, MPI_INT, right, 20, left, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  check += rep[1];
  /* a receive nobody sends to, cancelled */
  int never = 0, flag = 0;
  MPI_Request rc;
  MPI_Irecv(&never, 1, MPI_INT, left, 999, MPI_COMM_WORLD, &rc);
  MPI_Cancel(&rc);
  MPI_Status cst;
  MPI_Wait(&rc, &cst);
  MPI_Test_cancelled(&cst, &flag);
  check += flag;
  /* Improbe + Imrecv + Testall loop */
  int v = rank + 1000, got = 0;
  MPI_Request rs[2];
  MPI_Isend(&v, 1, MPI_INT, right, 21, MPI_COMM_WORLD, &rs[0]);
  MPI_Message msg;
  flag = 0;
  while (!flag) MPI_Improbe(left, 21, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
  MPI_Imrecv(&got, 1, MPI_INT, &msg, &rs[1]);
  flag = 0;
  while (!flag) MPI_Testall(2, rs, &flag, MPI_STATUSES_IGNORE);
  check += got;
  /* Testany and Testsome loops */
  int a = rank, b = -1, c = -1;
  MPI_Request rq[2];
  MPI_Irecv(&b, 1, MPI_INT, left, 22, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(&a, 1, MPI_INT, right, 22, MPI_COMM_WORLD, &rq[1]);
  int done = 0, idx, outc, ids[2];
  while (done < 2) {
    flag = 0;
    MPI_Testany(2, rq, &idx, &flag, MPI_STATUS_IGNORE);
    if (flag && idx != MPI_UNDEFINED) ++done;
  }
  MPI_Irecv(&c, 1, MPI_INT, left, 23, MPI_COMM_WORLD, &rq[0]);
  MPI_Issend(&a, 1, MPI_INT, right, 23, MPI_COMM_WORLD, &rq[1]);
  done = 0;
  while (done < 2) {
    MPI_Testsome(2, rq, &outc, ids, MPI_STATUSES_IGNORE);
    if (outc != MPI_UNDEFINED) done += outc;
  }
  check += b + c;
  /* Request_free of an active send; the receiver still gets it */
  MPI_Request fr;
  int fv = 5;
  MPI_Isend(&fv, 1, MPI_INT, right, 24, MPI_COMM_WORLD, &fr);
  MPI_Request_free(&fr);
  int fgot = 0;
  MPI_Recv(&fgot, 1, MPI_INT, left, 24, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  check += fgot;
  /* communicators */
  MPI_Group world_group, first;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int members[2] = {0, 1};
  MPI_Group_incl(world_group, 2, members, &first);
  MPI_Comm pair, node;
  MPI_Comm_create(MPI_COMM_WORLD, first, &pair);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  if (pair != MPI_COMM_NULL) {
    int one = 1, two = 0;
    MPI_Allreduce(&one, &two, 1, MPI_INT, MPI_SUM, pair);
    check += two;
    MPI_Comm_free(&pair);
  }
  /* nonblocking collectives */
  int bc = rank == 0 ? 77 : 0, *all = calloc((size_t)size, sizeof(int)), *a2a = calloc((size_t)size, sizeof(int));
  int *gat = calloc((size_t)size, sizeof(int));
  for (int i = 0; i < size; ++i) a2a[i] = rank;
  MPI_Request cr[3];
  MPI_Ibcast(&bc, 1, MPI_INT, 0, node, &cr[0]);
  MPI_Ialltoall(a2a, 1, MPI_INT, all, 1, MPI_INT, node, &cr[1]);
  MPI_Igather(&rank, 1, MPI_INT, gat, 1, MPI_INT, 0, node, &cr[2]);
  MPI_Waitall(3, cr, MPI_STATUSES_IGNORE);
  check += bc + all[size - 1];
  MPI_Comm_free(&node);
  MPI_Group_free(&first);
  MPI_Group_free(&world_group);
  free(all); free(a2a); free(gat);
  long total = 0;
  MPI_Reduce(&check, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("more checksum %ld\n", total);
}

/* MPI_THREAD_MULTIPLE: two threads per rank exchange messages with the
 * partner rank concurrently, each on its own tag; `threads_sends` messages
 * per iteration (eager Isends share one MPI handle under MPICH). */
static int threads_sends = 1;
static void* thread_exchange(void* arg) {
  int tag = *(int*)arg, partner = rank ^ 1;
  for (int i = 0; i < 500; ++i) {
    int out = i, in[4] = {-1, -1, -1, -1};
    MPI_Request rq[8];
    for (int k = 0; k < threads_sends; ++k) MPI_Irecv(&in[k], 1, MPI_INT, partner, tag, MPI_COMM_WORLD, &rq[2 * k]);
    for (int k = 0; k < threads_sends; ++k) MPI_Isend(&out, 1, MPI_INT, partner, tag, MPI_COMM_WORLD, &rq[2 * k + 1]);
    MPI_Waitall(2 * threads_sends, rq, MPI_STATUSES_IGNORE);
    for (int k = 0; k < threads_sends; ++k)
      if (in[k] != i) fprintf(stderr, "thread tag %d: got %d, want %d\n", tag, in[k], i);
  }
  return NULL;
}

static void threads(void) {
  pthread_t t[2];
  int tags[2] = {30, 31};
  for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, thread_exchange, &tags[i]);
  for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("threads done\n");
}

/* Eager Isends to every other rank completed in each way MPI offers. MPICH
 * 4.0.2 returns one handle for all Isends that complete at once, so the
 * recorder must tell the completions apart by its own request ids. Peer p
 * gets tag 50 + p and p + 1 ints; rank r's receives from q have tag 50 + r
 * and r + 1 ints. Every phase ends with a barrier so the next phase's
 * receives are unambiguous. */
static int eager_recvs(int* in, MPI_Request* rr) {
  int n = 0;
  for (int q = 0; q < size; ++q)
    if (q != rank) MPI_Irecv(in + 64 * q, rank + 1, MPI_INT, q, 50 + rank, MPI_COMM_WORLD, &rr[n++]);
  return n;
}

static void eager(void) {
  enum { kMax = 64 };
  static int out[64 * kMax], in[64 * kMax];
  MPI_Request sr[kMax], rr[kMax];
  if (size > kMax) return;
  for (int i = 0; i < 64 * kMax; ++i) out[i] = rank * 1000 + i;
  /* 1. Waitall on a peer-indexed array with MPI_REQUEST_NULL at our own index */
  int nr = eager_recvs(in, rr);
  for (int p = 0; p < size; ++p) {
    if (p == rank) sr[p] = MPI_REQUEST_NULL;
    else MPI_Isend(out + 64 * p, p + 1, MPI_INT, p, 50 + p, MPI_COMM_WORLD, &sr[p]);
  }
  MPI_Waitall(size, sr, MPI_STATUSES_IGNORE);
  MPI_Waitall(nr, rr, MPI_STATUSES_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  /* 2. one Wait per Isend, in reverse posting order */
  nr = eager_recvs(in, rr);
  for (int p = 0; p < size; ++p)
    if (p != rank) MPI_Isend(out + 64 * p, p + 1, MPI_INT, p, 50 + p, MPI_COMM_WORLD, &sr[p]);
  for (int p = size - 1; p >= 0; --p)
    if (p != rank) MPI_Wait(&sr[p], MPI_STATUS_IGNORE);
  MPI_Waitall(nr, rr, MPI_STATUSES_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  /* 3. Waitsome on sends and receives in one array */
  MPI_Request all[2 * kMax];
  int idx[2 * kMax], n = 0;
  n = eager_recvs(in, all);
  for (int p = size - 1; p >= 0; --p)
    if (p != rank) MPI_Isend(out + 64 * p, p + 1, MPI_INT, p, 50 + p, MPI_COMM_WORLD, &all[n++]);
  for (int done = 0, k = 0; done < n; done += k) MPI_Waitsome(n, all, &k, idx, MPI_STATUSES_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  /* 4. Testsome loop, then Testany loop */
  nr = eager_recvs(in, rr);
  n = 0;
  for (int p = 0; p < size; ++p)
    if (p != rank) MPI_Isend(out + 64 * p, p + 1, MPI_INT, p, 50 + p, MPI_COMM_WORLD, &sr[n++]);
  for (int done = 0, k = 0; done < n; done += k) MPI_Testsome(n, sr, &k, idx, MPI_STATUSES_IGNORE);
  for (int done = 0; done < nr;) {
    int i = 0, flag = 0;
    MPI_Testany(nr, rr, &i, &flag, MPI_STATUS_IGNORE);
    if (flag && i != MPI_UNDEFINED) ++done;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* 5. persistent sends started twice */
  n = 0;
  for (int p = 0; p < size; ++p)
    if (p != rank) MPI_Send_init(out + 64 * p, p + 1, MPI_INT, p, 50 + p, MPI_COMM_WORLD, &sr[n++]);
  for (int round = 0; round < 2; ++round) {
    nr = eager_recvs(in, rr);
    MPI_Startall(n, sr);
    MPI_Waitall(n, sr, MPI_STATUSES_IGNORE);
    MPI_Waitall(nr, rr, MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  for (int i = 0; i < n; ++i) MPI_Request_free(&sr[i]);
  /* 6. handles copied before completion: Waitall on a copy in another order */
  nr = eager_recvs(in, rr);
  for (int p = 0; p < size; ++p)
    if (p != rank) MPI_Isend(out + 64 * p, p + 1, MPI_INT, p, 50 + p, MPI_COMM_WORLD, &sr[p]);
  MPI_Request copy[kMax];
  n = 0;
  for (int p = 0; p < size; ++p)
    if (p != rank) copy[n++] = sr[p];
  MPI_Waitall(n, copy, MPI_STATUSES_IGNORE);
  MPI_Waitall(nr, rr, MPI_STATUSES_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  long check = 0;
  for (int q = 0; q < size; ++q)
    if (q != rank) check += in[64 * q + rank];
  long total = 0;
  MPI_Reduce(&check, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("eager checksum %ld\n", total);
}

/* Polling: rank 0 waits for a message rank 1 sends after ~300 ms, polling
 * MPI_Test on the receive and MPI_Iprobe for a control tag in one loop, then
 * polls MPI_Testany and MPI_Testsome alone the same way. Thousands of
 * unsuccessful polls that the recorder folds. Rank 0 prints nothing
 * timing-dependent. */
static void pause_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void poll_loops(void) {
  int v = 0, w[2] = {0, 0};
  if (rank == 1) {
    for (int k = 0; k < 3; ++k) {
      pause_ms(300);
      int x = 40 + k;
      MPI_Send(&x, 1, MPI_INT, 0, 5 + k, MPI_COMM_WORLD);
    }
  } else if (rank == 0) {
    MPI_Request r;
    MPI_Irecv(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &r);
    for (int done = 0; !done;) {
      MPI_Test(&r, &done, MPI_STATUS_IGNORE);
      int control = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &control, MPI_STATUS_IGNORE);
    }
    MPI_Request rs[2];
    MPI_Irecv(&w[0], 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &rs[0]);
    rs[1] = MPI_REQUEST_NULL;
    for (int done = 0, i = 0; !done;) MPI_Testany(2, rs, &i, &done, MPI_STATUS_IGNORE);
    MPI_Irecv(&w[1], 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &rs[1]);
    int got = 0, idx[2];
    while (got == 0) MPI_Testsome(2, rs, &got, idx, MPI_STATUSES_IGNORE);
    printf("poll got %d %d %d\n", v, w[0], w[1]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

static void barrier_a(void) { MPI_Barrier(MPI_COMM_WORLD); }
static void barrier_b(void) { MPI_Barrier(MPI_COMM_WORLD); }

static void sites(void) {
  for (int i = 0; i < 3; ++i) {
    barrier_a();
    barrier_b();
  }
  if (rank == 0) printf("sites done\n");
}

/* One MPI call reached through two callers at the same stack depth: the
 * per-thread call-site cache, keyed by return address and stack pointer, must
 * still tell the two stacks apart. */
static __attribute__((noinline)) void shared_leaf(void) { MPI_Barrier(MPI_COMM_WORLD); }
static __attribute__((noinline)) void caller_x(void) { shared_leaf(); }
static __attribute__((noinline)) void caller_y(void) { shared_leaf(); }

static void callers(int iterations) {
  for (int i = 0; i < iterations; ++i) {
    if (i % 3 == 2)
      caller_y();
    else
      caller_x();
  }
  if (rank == 0) printf("callers done\n");
}

static void truncate_recv(void) {
  int buf[8] = {0};
  if (rank == 0) MPI_Send(buf, 8, MPI_INT, 1, 1, MPI_COMM_WORLD);
  if (rank == 1) MPI_Recv(buf, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Long-running ring exchange (crash-safety tests kill a rank inside it). */
static void loop(int iterations) {
  int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  double out[16] = {0}, in[16];
  for (int it = 0; it < iterations; ++it) {
    MPI_Request rq[2];
    MPI_Irecv(in, 16, MPI_DOUBLE, left, it % 100, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(out, 16, MPI_DOUBLE, right, it % 100, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    if (it % 64 == 0) {
      double s = 0;
      MPI_Allreduce(&in[0], &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
  }
  if (rank == 0) printf("loop done\n");
}

/* MPI_Pack/MPI_Unpack (DMTracker's pack/unpack movements): a count and a
 * strided column of a 4 x 8 grid packed into one buffer, sent to the next
 * rank, unpacked there into another grid's column. */
static void pack_unpack(void) {
  double grid[8][4], ghost[8][4];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) grid[i][j] = rank * 100 + i * 4 + j, ghost[i][j] = 0;
  MPI_Datatype column;
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  char out[256], in[256];
  int pos = 0, n = 8;
  MPI_Pack(&n, 1, MPI_INT, out, sizeof out, &pos, MPI_COMM_WORLD);
  MPI_Pack(&grid[0][1], 1, column, out, sizeof out, &pos, MPI_COMM_WORLD);
  MPI_Sendrecv(out, pos, MPI_PACKED, (rank + 1) % size, 5, in, sizeof in, MPI_PACKED, (rank + size - 1) % size, 5,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int got = 0, ipos = 0;
  MPI_Unpack(in, sizeof in, &ipos, &got, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Unpack(in, sizeof in, &ipos, &ghost[0][3], 1, column, MPI_COMM_WORLD);
  MPI_Type_free(&column);
  if (rank == 0) printf("rank 0 unpacked %d values, last %.0f\n", got, ghost[7][3]);
}

/* Heap blocks (ranks/N.allocs): two made before MPI_Init (one kept, one freed
 * after it), blocks made after it directly and through libc (strdup), one
 * below the recording threshold, and MPI's own blocks (an Allreduce loop:
 * MPICH allocates and frees a few per call at 2 ranks), which must not be
 * recorded. Rank 0 prints its blocks' addresses for the test. */
static void* early_kept;
static void* early_freed;
static void heap(void) {
  free(early_freed);
  void* late = malloc(512);
  void* late_freed = malloc(1024);
  void* small = malloc(16);
  char text[200];
  memset(text, 'x', sizeof text - 1);
  text[sizeof text - 1] = '\0';
  char* copy = strdup(text);
  int in = rank, sum = 0;
  for (int i = 0; i < 200; ++i) MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  free(late_freed);
  free(copy);
  if (rank == 0)
    printf("heap early_kept %p early_freed %p late %p late_freed %p small %p copy %p sum %d\n", early_kept,
           early_freed, late, late_freed, small, (void*)copy, sum);
  free(small);
}

/* Guarded receives (SCALEFUZZ_NOISE_GUARD_RECEIVES=1), 2 ranks: one page
 * holds a counter and a receive buffer. The counter is updated while the
 * receive is pending (same page, not the buffer: no finding), the pending
 * buffer is read (a finding), a started persistent receive's buffer is
 * written (a finding), and a receive used only after its Wait (none). MPI's
 * own writes into the guarded buffers must land: the data is checked. */
static void guard(void) {
  int peer = 1 - rank;
  long* page = aligned_alloc(4096, 4096);
  long* counter = &page[0];
  long* in = &page[8];
  long out[16];
  for (int i = 0; i < 16; ++i) out[i] = rank * 100 + i;
  *counter = 0;
  MPI_Request r;
  MPI_Irecv(in, 16, MPI_LONG, peer, 1, MPI_COMM_WORLD, &r);
  for (int i = 0; i < 100; ++i) *counter += i;
  volatile long early = in[3]; /* read while pending */
  (void)early;
  MPI_Send(out, 16, MPI_LONG, peer, 1, MPI_COMM_WORLD);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  int ok = in[15] == peer * 100 + 15;
  MPI_Recv_init(in, 16, MPI_LONG, peer, 2, MPI_COMM_WORLD, &r);
  MPI_Start(&r);
  in[0] = -1; /* written while pending */
  MPI_Send(out, 16, MPI_LONG, peer, 2, MPI_COMM_WORLD);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  ok = ok && in[1] == peer * 100 + 1; /* in[0]: -1 or the data, depending on when it arrived */
  MPI_Request_free(&r);
  MPI_Irecv(in, 16, MPI_LONG, peer, 3, MPI_COMM_WORLD, &r);
  MPI_Send(out, 16, MPI_LONG, peer, 3, MPI_COMM_WORLD);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  long sum = 0;
  for (int i = 0; i < 16; ++i) sum += in[i];
  ok = ok && sum == peer * 1600 + 120;
  int all_ok = 0;
  MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("guard counter %ld data %s\n", *counter, all_ok ? "ok" : "WRONG");
  free(page);
}

/* One-sided (issue 33), 2 ranks: a fence epoch with Put, Get and
 * Accumulate, an exclusive lock epoch, lock_all with a flush and an Rput, a
 * PSCW epoch; rank 1 stores into its own window inside the fence epoch (a
 * line of ranks/1.winaccess with SCALEFUZZ_NOISE_GUARD_WINDOWS=1). MPI's
 * writes into the guarded window must land: the data is checked. */
static void rma(void) {
  const int peer = 1 - rank;
  int* base;
  MPI_Win win;
  MPI_Win_allocate(1024 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  for (int i = 0; i < 1024; ++i) base[i] = 0;
  int v[4] = {rank + 1, 2, 3, 4}, got[4] = {0};
  MPI_Win_fence(0, win);
  MPI_Put(v, 4, MPI_INT, peer, 8, 4, MPI_INT, win);
  MPI_Get(got, 1, MPI_INT, peer, 100, 1, MPI_INT, win);
  MPI_Accumulate(v, 1, MPI_INT, peer, 200, 1, MPI_INT, MPI_SUM, win);
  if (rank == 1) base[500] = 7; /* own store inside the epoch */
  MPI_Win_fence(0, win);
  int ok = base[8] == peer + 1 && base[200] == peer + 1;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, peer, 0, win);
  MPI_Put(v, 1, MPI_INT, peer, 300, 1, MPI_INT, win);
  MPI_Win_unlock(peer, win);
  MPI_Win_lock_all(0, win);
  MPI_Request r;
  MPI_Rput(v, 1, MPI_INT, peer, 301, 1, MPI_INT, win, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Win_flush(peer, win);
  MPI_Win_unlock_all(win);
  MPI_Group world, other;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &peer, &other);
  MPI_Win_post(other, 0, win);
  MPI_Win_start(other, 0, win);
  MPI_Put(v, 1, MPI_INT, peer, 302, 1, MPI_INT, win);
  MPI_Win_complete(win);
  MPI_Win_wait(win);
  ok = ok && base[300] == peer + 1 && base[301] == peer + 1 && base[302] == peer + 1;
  MPI_Group_free(&other);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  int all_ok = 0;
  MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("rma data %s\n", all_ok ? "ok" : "WRONG");
}

int main(int argc, char** argv) {
  int provided = 0;
  if (argc > 1 && strcmp(argv[1], "heap") == 0) {
    early_kept = malloc(256);
    early_freed = malloc(320);
  }
  if (argc > 1 && strcmp(argv[1], "threads") == 0)
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  else
    MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* what = argc > 1 ? argv[1] : "";
  if (strcmp(what, "p2p") == 0) p2p();
  else if (strcmp(what, "coll") == 0) coll();
  else if (strcmp(what, "pack") == 0) pack_unpack();
  else if (strcmp(what, "comm") == 0) comm();
  else if (strcmp(what, "sites") == 0) sites();
  else if (strcmp(what, "more") == 0) more();
  else if (strcmp(what, "threads") == 0 && provided == MPI_THREAD_MULTIPLE) {
    if (argc > 2) threads_sends = atoi(argv[2]) < 1 ? 1 : atoi(argv[2]) > 4 ? 4 : atoi(argv[2]);
    threads();
  }
  else if (strcmp(what, "truncate") == 0) truncate_recv();
  else if (strcmp(what, "eager") == 0) eager();
  else if (strcmp(what, "poll") == 0) poll_loops();
  else if (strcmp(what, "heap") == 0) heap();
  else if (strcmp(what, "loop") == 0) loop(argc > 2 ? atoi(argv[2]) : 1000);
  else if (strcmp(what, "callers") == 0) callers(argc > 2 ? atoi(argv[2]) : 600);
  else if (strcmp(what, "guard") == 0 && size == 2) guard();
  else if (strcmp(what, "rma") == 0 && size == 2) rma();
  else {
    if (rank == 0) fprintf(stderr, "usage: %s p2p|more|threads|coll|pack|comm|sites|callers|truncate|loop|eager|poll|heap|guard|rma [iterations]\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  MPI_Finalize();
  return 0;
}
