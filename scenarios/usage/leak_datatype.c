/* A column datatype is built for every exchange and never freed.
 * ranks: 2
 * expect: leaked-handle rank 0 line 15
 */
#include <mpi.h>

#define N 4

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double grid[N][N] = {{0}};
  MPI_Datatype column;
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  if (rank == 0) MPI_Send(&grid[0][N - 1], 1, column, 1, 0, MPI_COMM_WORLD);
  if (rank == 1) MPI_Recv(&grid[0][0], 1, column, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
