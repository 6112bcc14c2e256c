/* Ghost-cell exchange where both neighbours send first and receive
 * second: it completes only because MPI buffers the small messages; with
 * synchronous sends (or larger halos) both ranks block in MPI_Send.
 * ranks: 2
 * expect: potential-deadlock rank 0|1 line 25
 */
#include <mpi.h>
#include <stdio.h>

#define NX 32

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double u[NX + 2];
  for (int i = 0; i < NX + 2; ++i) u[i] = rank;
  const int partner = rank ^ 1;
  for (int iter = 0; iter < 3; ++iter) {
    if (partner < size) {
      /* rank 0 owns the left half, rank 1 the right half */
      const int mine = rank == 0 ? NX : 1;
      const int ghost = rank == 0 ? NX + 1 : 0;
      MPI_Send(&u[mine], 1, MPI_DOUBLE, partner, iter, MPI_COMM_WORLD);
      MPI_Recv(&u[ghost], 1, MPI_DOUBLE, partner, iter, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 1; i <= NX; ++i) u[i] = 0.5 * (u[i - 1] + u[i + 1]);
  }
  printf("rank %d: %g\n", rank, u[1]);
  MPI_Finalize();
  return 0;
}
