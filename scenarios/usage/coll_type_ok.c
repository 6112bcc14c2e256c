/* Correct twin: matching signatures, also through a derived type
 * (one contiguous pair of ints on one side, two ints on the other).
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int v[2] = {1, 2}, all[4];
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  if (rank == 0)
    MPI_Bcast(v, 1, pair, 0, MPI_COMM_WORLD);
  else
    MPI_Bcast(v, 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gather(v, 2, MPI_INT, all, 1, pair, 0, MPI_COMM_WORLD);
  double in[4] = {1, 2, 3, 4}, out[4];
  MPI_Allreduce(in, out, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Type_free(&pair);
  MPI_Finalize();
  return 0;
}
