/* A pending receive lands in the buffer a pending send still reads.
 * ranks: 2
 * expect: overlapping-buffers rank 0 line 15
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int other = 1 - rank;
  int work[6] = {rank, rank, rank, rank, rank, rank};
  MPI_Request r[2];
  MPI_Isend(work, 6, MPI_INT, other, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(work + 2, 4, MPI_INT, other, 0, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Finalize();
  return 0;
}
