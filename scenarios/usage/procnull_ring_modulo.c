/* A ring shift whose left neighbour is computed without wrapping around
 * ((rank - 1) % size is -1 on rank 0, MPICH's MPI_PROC_NULL): rank 0
 * receives from MPI_PROC_NULL, and the last rank's message to it is never
 * received. The right neighbour wraps correctly.
 * ranks: 3
 * expect: invalid-argument rank 0 line 31
 * twin: procnull_ring_modulo_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>

/* C's % keeps the sign of rank - 1: without "+ size", rank 0 gets -1 */
static int left_of(int rank, int size) {
#ifdef FIXED
  rank += size;
#endif
  return (rank - 1) % size;
}

int main(int argc, char** argv) {
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int right = (rank + 1) % size, left = left_of(rank, size);
  double token = 10.0 * rank, got = -1.0;
  MPI_Request reqs[2];
  MPI_Status statuses[2];
  for (int step = 0; step < 3; ++step) {
    MPI_Isend(&token, 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&got, 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, statuses);
    token = got + 1.0;
  }
  printf("rank %d token %g\n", rank, token);
  MPI_Finalize();
  return 0;
}
