/* Correct twin (as MPICH's own tests do it): a rank drains notifications
 * from every other rank into one scratch buffer whose content it never
 * reads; only the arrival matters. Reported as info, not as an error.
 * ranks: 3
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int scratch[2], note[2] = {rank, 1};
  if (rank == 0) {
    MPI_Request r[8];
    for (int i = 1; i < size && i <= 8; ++i)
      MPI_Irecv(scratch, 2, MPI_INT, i, 7, MPI_COMM_WORLD, &r[i - 1]);
    MPI_Waitall(size - 1 < 8 ? size - 1 : 8, r, MPI_STATUSES_IGNORE);
  } else {
    MPI_Send(note, 2, MPI_INT, 0, 7, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
