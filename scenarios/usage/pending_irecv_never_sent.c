/* A worker posts a receive for a shutdown message the master never sends.
 * ranks: 2
 * expect: pending-request rank 1 line 18
 */
#include <mpi.h>

enum { TAG_WORK = 1, TAG_STOP = 2 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, task = 0, stop = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    task = 42;
    MPI_Send(&task, 1, MPI_INT, 1, TAG_WORK, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Request stop_req;
    MPI_Irecv(&stop, 1, MPI_INT, 0, TAG_STOP, MPI_COMM_WORLD, &stop_req);
    MPI_Recv(&task, 1, MPI_INT, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
