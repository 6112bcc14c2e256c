/* Boundary values stored as double but sent and received as MPI_FLOAT on
 * both sides (the signatures match each other, not the data).
 * ranks: 2
 * expect: buffer-type-mismatch rank 0 line 17
 */
#include <mpi.h>

double boundary[16];

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 16; ++i) boundary[i] = rank * 0.5 + i;
  int step;
  for (step = 0; step < 2; ++step) {
    if (rank == 0) MPI_Send(boundary, 16, MPI_FLOAT, 1, step, MPI_COMM_WORLD);
    else MPI_Recv(boundary, 16, MPI_FLOAT, 0, step, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
