/* A derived "pair of ints" sent into a "pair of doubles" receive.
 * ranks: 2
 * expect: type-mismatch rank 1 line 19
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Datatype two_ints, two_dbls;
  MPI_Type_contiguous(2, MPI_INT, &two_ints);
  MPI_Type_commit(&two_ints);
  MPI_Type_contiguous(2, MPI_DOUBLE, &two_dbls);
  MPI_Type_commit(&two_dbls);
  int ibuf[2] = {1, 2};
  double dbuf[2];
  if (rank == 0) MPI_Send(ibuf, 1, two_ints, 1, 0, MPI_COMM_WORLD);
  if (rank == 1) MPI_Recv(dbuf, 1, two_dbls, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&two_ints);
  MPI_Type_free(&two_dbls);
  MPI_Finalize();
  return 0;
}
