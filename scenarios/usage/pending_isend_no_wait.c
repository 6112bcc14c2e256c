/* Halo exchange that forgets to wait for its send.
 * ranks: 2
 * expect: pending-request rank 0 line 16
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double halo_out[8] = {rank}, halo_in[8];
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Request req;
  MPI_Isend(halo_out, 8, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req);
  MPI_Recv(halo_in, 8, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("rank %d got %g\n", rank, halo_in[0]);
  MPI_Finalize();
  return 0;
}
