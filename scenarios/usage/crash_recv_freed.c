/* A halo buffer released by a cleanup step that runs one phase too early,
 * then used to receive: the block was large enough for the allocator to
 * return it to the system, so MPI's copy into it faults inside MPI_Recv.
 * ranks: 2
 * expect: invalid-argument rank 1 line 31
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

struct halo {
  double* data;
  int len;
};

static void release(struct halo* h) { free(h->data); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  struct halo h = {malloc(65536 * sizeof(double)), 65536};
  for (int i = 0; i < h.len; ++i) h.data[i] = 0.0;
  release(&h);
  if (rank == 0) {
    double* edge = calloc(65536, sizeof(double));
    MPI_Send(edge, 65536, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    free(edge);
  } else {
    /* h.data is dangling here */
    MPI_Recv(h.data, h.len, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("received\n");
  }
  MPI_Finalize();
  return 0;
}
