/* What growing a trace file costs the kernel, per 4 KiB page, for the ways a
 * recorder can grow a file of 128-byte records (the raw in-flight Event):
 *   zeros_populate  write zeros (pwritev), map, MADV_POPULATE_WRITE, then
 *                   store the records (the recorder's EventLog, mapped.cpp)
 *   zeros_faults    the same without the populate: the stores take the faults
 *   sparse_populate ftruncate, map, MADV_POPULATE_WRITE, store
 *   falloc_populate fallocate, map, MADV_POPULATE_WRITE, store
 *   ring_pwrite     records stored into a fixed file-backed ring (mapped and
 *                   populated once) and pwrite()n to the trace file 1 MiB at a
 *                   time (a staging ring)
 *   pwrite_only     pwrite of 1 MiB buffers, no records stored (the floor of
 *                   any way that ends with new bytes in the page cache)
 *   pwrite_existing the same into the first 4 MiB of the file over and over:
 *                   page-cache pages that exist already (the copy alone; what
 *                   new pages cost beyond it is their allocation)
 * Prints CPU (user + system) microseconds per 4 KiB page; run.sh divides by
 * the 32 records a page holds. Run it on the file system the runs use.
 * usage: inject_file_growth DIR [MiB] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum { kChunk = 1 << 20, kRecord = 128 };
static unsigned char zeros[64 << 10];

static double cpu_seconds(void) {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  return r.ru_utime.tv_sec + r.ru_utime.tv_usec * 1e-6 + r.ru_stime.tv_sec + r.ru_stime.tv_usec * 1e-6;
}

static int write_zeros(int fd, off_t off, size_t n) {
  struct iovec v[16];
  for (int i = 0; i < 16; ++i) v[i] = (struct iovec){zeros, sizeof zeros};
  while (n > 0) {
    ssize_t w = pwritev(fd, v, 16, off);
    if (w <= 0) return -1;
    off += w;
    n -= (size_t)w;
  }
  return 0;
}

static int write_all(int fd, const void* p, size_t n, off_t off) {
  while (n > 0) {
    ssize_t w = pwrite(fd, p, n, off);
    if (w <= 0) return -1;
    p = (const char*)p + w;
    off += w;
    n -= (size_t)w;
  }
  return 0;
}

/* 128-byte records: seq first, 120 bytes of fields. */
static void store_records(unsigned char* p, size_t n, unsigned long* seq) {
  for (size_t i = 0; i + kRecord <= n; i += kRecord) {
    memset(p + i + 8, 0x5a, kRecord - 8);
    memcpy(p + i, &(unsigned long){++*seq}, 8);
  }
}

/* Returns CPU seconds spent growing a file to `total` bytes in `mode`, or < 0. */
static double run(const char* mode, const char* dir, size_t total) {
  char path[4096], ring_path[4096];
  snprintf(path, sizeof path, "%s/file_growth.trace", dir);
  snprintf(ring_path, sizeof ring_path, "%s/file_growth.ring", dir);
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return -1;
  unsigned long seq = 0;
  double t0 = cpu_seconds(), t = -1;
  if (strcmp(mode, "ring_pwrite") == 0 || strncmp(mode, "pwrite_", 7) == 0) {
    const size_t ring = 4 * (size_t)kChunk;
    int rfd = open(ring_path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (rfd < 0 || write_zeros(rfd, 0, ring) != 0) return -1;
    unsigned char* r = mmap(NULL, ring, PROT_READ | PROT_WRITE, MAP_SHARED, rfd, 0);
    if (r == MAP_FAILED) return -1;
    (void)madvise(r, ring, MADV_POPULATE_WRITE);
    store_records(r, ring, &seq);
    t0 = cpu_seconds();  /* the ring's own pages are made once, not per trace page */
    for (size_t off = 0; off < total; off += kChunk) {
      unsigned char* p = r + off % ring;
      if (strcmp(mode, "ring_pwrite") == 0) store_records(p, kChunk, &seq);
      const off_t at = strcmp(mode, "pwrite_existing") == 0 ? (off_t)(off % ring) : (off_t)off;
      if (write_all(fd, p, kChunk, at) != 0) return -1;
    }
    t = cpu_seconds() - t0;
    munmap(r, ring);
    close(rfd);
    unlink(ring_path);
  } else {
    unsigned char* base = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) return -1;
    const int populate = strstr(mode, "_populate") != NULL;
    for (size_t off = 0; off < total; off += kChunk) {
      int rc = 0;
      if (strncmp(mode, "zeros", 5) == 0) rc = write_zeros(fd, (off_t)off, kChunk);
      else if (strncmp(mode, "falloc", 6) == 0) rc = fallocate(fd, 0, (off_t)off, kChunk);
      else if (strncmp(mode, "sparse", 6) == 0) rc = ftruncate(fd, (off_t)(off + kChunk));
      else return -1;
      if (rc != 0) return -1;
      void* p = mmap(base + off, kChunk, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, (off_t)off);
      if (p == MAP_FAILED) return -1;
      if (populate) (void)madvise(p, kChunk, MADV_POPULATE_WRITE);
      store_records(p, kChunk, &seq);
    }
    t = cpu_seconds() - t0;
    munmap(base, total);
  }
  close(fd);
  unlink(path);
  return t;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s DIR [MiB]\n", argv[0]);
    return 2;
  }
  const size_t mib = argc > 2 ? (size_t)atol(argv[2]) : 64;
  const size_t total = mib << 20;
  static const char* const modes[] = {"zeros_populate", "zeros_faults", "sparse_populate",
                                      "falloc_populate", "ring_pwrite", "pwrite_only", "pwrite_existing"};
  /* A first pass that is not reported: on a VM whose host backs guest memory
   * lazily (free page reporting), the first pages the guest touches after
   * a while cost several times more (3-9 us per page measured here), and
   * that would land on whichever method runs first. */
  if (run("pwrite_only", argv[1], total) < 0) {
    perror("warm-up");
    return 1;
  }
  for (size_t i = 0; i < sizeof modes / sizeof *modes; ++i) {
    double t = run(modes[i], argv[1], total);
    if (t < 0) {
      perror(modes[i]);
      return 1;
    }
    printf("%-16s cpu_us_per_page %.2f\n", modes[i], t / (total / 4096.0) * 1e6);
  }
  return 0;
}
