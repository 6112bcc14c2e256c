/* Result collection: each worker contributes its residual to the root with
 * MPI_Gather and then sends its checksum line; the root reads the checksum
 * first and gathers afterwards. MPICH lets a non-root leave MPI_Gather once
 * its data is sent, so the run completes, but a synchronizing MPI_Gather
 * deadlocks it (MPI-4.0 §6.14). Fixed: the root gathers first.
 * ranks: 2
 * expect: potential-deadlock rank 1 line 33
 * twin: nosync_gather_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double residual = 1.0 / (rank + 1), all[2] = {0, 0};
  long checksum = 0;
  if (rank == 0) {
#ifdef FIXED
    MPI_Gather(&residual, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int r = 1; r < size; ++r)
      MPI_Recv(&checksum, 1, MPI_LONG, r, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#else
    for (int r = 1; r < size; ++r)
      MPI_Recv(&checksum, 1, MPI_LONG, r, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Gather(&residual, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
#endif
    printf("residuals %g %g, checksum %ld\n", all[0], all[1], checksum);
  } else {
    checksum = 1000 + rank;
    MPI_Gather(&residual, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Send(&checksum, 1, MPI_LONG, 0, 9, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
