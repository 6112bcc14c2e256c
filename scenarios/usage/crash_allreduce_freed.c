/* Per-bin sums reduced into a histogram that an error path freed before
 * the reduction: the (large, returned to the system) block is written
 * inside MPI_Allreduce.
 * ranks: 2
 * expect: invalid-argument rank 0|1 line 35
 */
#include <mpi.h>
#include <stdlib.h>

#define NBINS (1 << 16)

typedef struct {
  long* bins;
  int ok;
} histogram;

static void drop_if_empty(histogram* h, long total) {
  if (total == 0) free(h->bins);  /* forgets to clear h->bins */
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long* local = calloc(NBINS, sizeof(long));
  long total = 0;
  for (int b = 0; b < NBINS; b += 7) {
    local[b] = rank + b % 3;
    total += local[b];
  }
  histogram global = {malloc(NBINS * sizeof(long)), 1};
  drop_if_empty(&global, 0);
  (void)total;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Allreduce(local, global.bins, NBINS, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  free(local);
  MPI_Finalize();
  return 0;
}
