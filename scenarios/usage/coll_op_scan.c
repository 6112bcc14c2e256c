/* Prefix offsets: the last rank multiplies instead of adding.
 * ranks: 2
 * expect: collective-op-mismatch rank 1 line 14
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = 10 + rank, off = 0;
  MPI_Op op = rank == size - 1 ? MPI_PROD : MPI_SUM;
  MPI_Scan(&n, &off, 1, MPI_INT, op, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
