/*
 * allgather_overflow — Vrisha §6.1 (MPICH2 MPIR_Allgather integer overflow).
 *
 * BUG: the hand-rolled allgather below picks its algorithm like MPICH2 did:
 *   total = recvcount * comm_size * type_size   computed in a 32-bit int
 *   total < LONG_MSG && power-of-two ranks -> recursive doubling
 *   total < LONG_MSG                       -> Bruck
 *   otherwise                              -> ring
 * With the default --count 16 and --type-size 8388608 (an 8 MiB record) the
 * real volume is always "long" (ring), but from 16 ranks on the 32-bit product
 * wraps (16 * 16 * 2^23 = 2^31) to a negative number and the selector
 * silently switches to recursive doubling (16, 32 ranks) or Bruck (24 ranks).
 * Results stay correct; only the communication pattern changes (a
 * performance bug), so every rank at >= 16 ranks behaves "wrongly" alike.
 * To keep buffers small, each record travels as one 8-byte token: the
 * selector sees the nominal record size, the wire sees 8 bytes per record.
 *
 * Built three ways from this file:
 *   allgather_overflow        the bug
 *   allgather_clean           SF_CLEAN_SELECTION: the product in 64 bits (ring at every scale)
 *   allgather_overflow_noise  SF_EXTRA_SITES: the bug plus as many call sites
 *                             with random volumes (independent of rank and
 *                             scale) as real ones (paper §4.2)
 *
 * Scales: train 4..12 ranks (no overflow), test 16 and 24 ranks.
 * Expected report (configs/scenarios/vrisha_*.yaml, detector kcca): every rank
 * of every run at 16 and 24 ranks flagged "scale-anomaly" for
 * allgather_overflow and allgather_overflow_noise, localized to the call site
 * whose volume moved from allgather_ring to allgather_recursive_doubling /
 * allgather_bruck, diverging in sf_allgather (application); nothing flagged
 * for allgather_clean. Exit code 0 in all cases (no crash, correct data).
 *
 * Real call sites: ring/recursive-doubling/Bruck steps (one active per run),
 * halo exchange left and right, gather to rank 0 (send and receive).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LONG_MSG 524288 /* bytes: MPICH's default MPIR_CVAR_ALLGATHER_LONG_MSG_SIZE */
#define NOINLINE __attribute__((noinline))

static int g_rank, g_size;

static void fail(const char* what) {
  fprintf(stderr, "allgather_overflow: rank %d: %s\n", g_rank, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Ring: p-1 steps, pass one block to the right. */
static NOINLINE void allgather_ring(double* buf, int count) {
  const int right = (g_rank + 1) % g_size, left = (g_rank - 1 + g_size) % g_size;
  for (int step = 0; step < g_size - 1; ++step) {
    const int send_block = (g_rank - step + g_size) % g_size;
    const int recv_block = (g_rank - step - 1 + g_size) % g_size;
    MPI_Sendrecv(buf + (size_t)send_block * count, count, MPI_DOUBLE, right, 11,
                 buf + (size_t)recv_block * count, count, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

/* Recursive doubling (power-of-two sizes): exchange the gathered half. */
static NOINLINE void allgather_recursive_doubling(double* buf, int count) {
  for (int mask = 1; mask < g_size; mask <<= 1) {
    const int partner = g_rank ^ mask;
    const int my_start = g_rank & ~(mask - 1), their_start = partner & ~(mask - 1);
    MPI_Sendrecv(buf + (size_t)my_start * count, mask * count, MPI_DOUBLE, partner, 12,
                 buf + (size_t)their_start * count, mask * count, MPI_DOUBLE, partner, 12, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  }
}

/* Bruck: ceil(log2 p) steps on a rotated buffer, then rotate back. */
static NOINLINE void allgather_bruck(double* buf, int count) {
  const size_t n = (size_t)g_size * count;
  double* tmp = malloc(n * sizeof *tmp);
  if (!tmp) fail("out of memory");
  for (int b = 0; b < g_size; ++b)  /* tmp block j = block (rank + j) */
    memcpy(tmp + (size_t)b * count, buf + (size_t)((g_rank + b) % g_size) * count, count * sizeof *tmp);
  for (int have = 1; have < g_size; have <<= 1) {
    const int blocks = have < g_size - have ? have : g_size - have;
    const int dst = (g_rank - have + g_size) % g_size, src = (g_rank + have) % g_size;
    MPI_Sendrecv(tmp, blocks * count, MPI_DOUBLE, dst, 13, tmp + (size_t)have * count, blocks * count, MPI_DOUBLE,
                 src, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  for (int b = 0; b < g_size; ++b)
    memcpy(buf + (size_t)((g_rank + b) % g_size) * count, tmp + (size_t)b * count, count * sizeof *tmp);
  free(tmp);
}

/* The collective: buf holds g_size blocks of `count` records; block g_rank is ours. */
static NOINLINE const char* sf_allgather(double* buf, int count, int type_size) {
  const int pof2 = (g_size & (g_size - 1)) == 0;
#ifdef SF_CLEAN_SELECTION
  const long long total = (long long)count * g_size * type_size;
#else
  /* BUG (as in MPICH2's MPIR_Allgather): the product wraps in 32 bits. The
     unsigned multiply keeps the wrap well-defined C; the conversion back to
     int is what the original's signed overflow did in practice. */
  const int total = (int)((unsigned)count * (unsigned)g_size * (unsigned)type_size);
#endif
  if (total < LONG_MSG && pof2) {
    allgather_recursive_doubling(buf, count);
    return "recursive-doubling";
  }
  if (total < LONG_MSG) {
    allgather_bruck(buf, count);
    return "bruck";
  }
  allgather_ring(buf, count);
  return "ring";
}

/* 1-D halo exchange: ranks at the ends have one neighbour. */
static NOINLINE void halo_exchange(double* halo, int n) {
  double in[256];
  if (g_rank > 0)
    MPI_Sendrecv(halo, n, MPI_DOUBLE, g_rank - 1, 21, in, n, MPI_DOUBLE, g_rank - 1, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (g_rank < g_size - 1)
    MPI_Sendrecv(halo, n, MPI_DOUBLE, g_rank + 1, 22, in, n, MPI_DOUBLE, g_rank + 1, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Rank r sends r+1 values to rank 0 (rank-dependent volume). */
static NOINLINE double gather_to_root(void) {
  double mine[64], sum = 0;
  const int n = g_rank % 64 + 1;
  for (int i = 0; i < n; ++i) mine[i] = g_rank;
  if (g_rank != 0) {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 31, MPI_COMM_WORLD);
    return 0;
  }
  for (int src = 1; src < g_size; ++src) {
    double in[64];
    MPI_Recv(in, src % 64 + 1, MPI_DOUBLE, src, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sum += in[0];
  }
  return sum;
}

#ifdef SF_EXTRA_SITES
/* Extra call sites whose volumes are random per run and rank: features that
   no control feature explains. One function per site (distinct tags keep the
   compiler from folding them into one call instruction). */
#define NOISE_SITE(k)                                                                         \
  static NOINLINE void noise_site_##k(unsigned* seed) {                                       \
    char out[4096], in[4096];                                                                 \
    const int bytes = (int)(rand_r(seed) % sizeof out);                                       \
    const int to = (g_rank + 1 + k) % g_size, from = ((g_rank - 1 - k) % g_size + g_size) % g_size; \
    memset(out, k, (size_t)bytes);                                                            \
    MPI_Sendrecv(out, bytes, MPI_CHAR, to, 40 + k, in, sizeof in, MPI_CHAR, from, 40 + k, MPI_COMM_WORLD, \
                 MPI_STATUS_IGNORE);                                                          \
  }
NOISE_SITE(0)
NOISE_SITE(1)
NOISE_SITE(2)
NOISE_SITE(3)
NOISE_SITE(4)
static void noise_exchange(unsigned* seed) {
  noise_site_0(seed);
  noise_site_1(seed);
  noise_site_2(seed);
  noise_site_3(seed);
  noise_site_4(seed);
}
#define EXTRA_SITES 5 /* as many as the real sites above */
#endif

#include "scenario_args.h" /* here, below the algorithms: their line numbers are quoted in READMEs */

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  const int count = (int)scenario_arg(argc, argv, "--count", 16);
  const int type_size = (int)scenario_arg(argc, argv, "--type-size", 8388608);
  const int iterations = (int)scenario_arg(argc, argv, "--iterations", 4);
  /* Extra-site volumes differ per run: --seed (any 64-bit number, the
     harness passes the run's seed), else time and pid. */
  unsigned seed_arg = (unsigned)time(NULL) ^ (unsigned)getpid();
  for (int i = 1; i + 1 < argc; ++i)
    if (strcmp(argv[i], "--seed") == 0) {
      const unsigned long long v = strtoull(argv[i + 1], NULL, 10);
      seed_arg = (unsigned)(v ^ (v >> 32));
    }
  double* buf = malloc((size_t)g_size * count * sizeof *buf);
  if (!buf) fail("out of memory");
  double halo[256];
  for (int i = 0; i < 256; ++i) halo[i] = g_rank + i;
#ifdef SF_EXTRA_SITES
  unsigned seed = seed_arg * 2654435761u + (unsigned)g_rank * 40503u + 1u;
#else
  (void)seed_arg;
#endif
  const char* algorithm = "?";
  double checksum = 0;
  for (int it = 0; it < iterations; ++it) {
    for (int b = 0; b < g_size; ++b)
      for (int i = 0; i < count; ++i) buf[(size_t)b * count + i] = b == g_rank ? g_rank * 1000.0 + i + it : -1.0;
    algorithm = sf_allgather(buf, count, type_size);
    for (int b = 0; b < g_size; ++b)
      for (int i = 0; i < count; ++i)
        if (buf[(size_t)b * count + i] != b * 1000.0 + i + it) fail("allgather delivered wrong data");
    halo_exchange(halo, 64);
    checksum += gather_to_root();
#ifdef SF_EXTRA_SITES
    noise_exchange(&seed);
#endif
  }
  if (g_rank == 0)
    printf("allgather: %d ranks, algorithm=%s, checksum=%.0f ok\n", g_size, algorithm, checksum);
  free(buf);
  MPI_Finalize();
  return 0;
}
