/* Correct twin: halo exchange with Isend/Irecv completed by Waitall, and a
 * persistent request started, waited for and freed.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double out[8] = {rank}, in[8];
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Request reqs[2];
  MPI_Irecv(in, 8, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(out, 8, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  MPI_Request p;
  MPI_Send_init(out, 8, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &p);
  for (int it = 0; it < 2; ++it) {
    MPI_Start(&p);
    MPI_Recv(in, 8, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&p, MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&p);
  MPI_Finalize();
  return 0;
}
