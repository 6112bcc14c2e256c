/* Work items streamed to the next rank from one staging buffer that is
 * refilled before the previous send completed (all waits at the end).
 * ranks: 2
 * expect: buffer-modified rank 0 line 21
 */
#include <mpi.h>
#include <stdlib.h>

#define ITEMS 4
#define LEN 32

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int* staging = malloc(LEN * sizeof(int));
  MPI_Request reqs[ITEMS];
  if (rank == 0) {
    for (int item = 0; item < ITEMS; ++item) {
      for (int k = 0; k < LEN; ++k) staging[k] = item * 100 + k;
      MPI_Isend(staging, LEN, MPI_INT, 1, item, MPI_COMM_WORLD, &reqs[item]);
    }
    MPI_Waitall(ITEMS, reqs, MPI_STATUSES_IGNORE);
  } else {
    int* in = malloc(ITEMS * LEN * sizeof(int));
    for (int item = 0; item < ITEMS; ++item)
      MPI_Irecv(in + item * LEN, LEN, MPI_INT, 0, item, MPI_COMM_WORLD, &reqs[item]);
    MPI_Waitall(ITEMS, reqs, MPI_STATUSES_IGNORE);
    free(in);
  }
  free(staging);
  MPI_Finalize();
  return 0;
}
