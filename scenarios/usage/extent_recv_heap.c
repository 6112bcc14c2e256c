/* Halo exchange of a 1-D field: the receive count is one larger than the
 * ghost buffer allocated for it (count n + 1 into n doubles).
 * ranks: 2
 * expect: buffer-overflow rank 1 line 19
 */
#include <mpi.h>
#include <stdlib.h>

static void exchange(double* field, double* ghost, int n, int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Request req;
  if (rank == 0) {
    MPI_Isend(field, n, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else {
    MPI_Status st;
    int got;
    (void)left;
    MPI_Recv(ghost, n + 1, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &got);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, n = 32;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double* field = malloc(n * sizeof(double));
  double* ghost = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) field[i] = rank + i;
  exchange(field, ghost, n, rank, size);
  free(field);
  free(ghost);
  MPI_Finalize();
  return 0;
}
