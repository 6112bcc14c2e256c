/* I/O aggregation set-up: the even ranks form the writers' communicator
 * and the others should stay out of it. The code passes -1 as "no color"
 * instead of MPI_UNDEFINED; MPICH accepts it and puts the odd ranks into a
 * communicator of their own, but MPI-4.0 §7.4.2 allows only non-negative
 * colors or MPI_UNDEFINED. Fixed: MPI_UNDEFINED.
 * ranks: 2
 * expect: invalid-argument rank 1 line 27
 * twin: args_split_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>

#ifdef FIXED
#define NO_COLOR MPI_UNDEFINED
#else
#define NO_COLOR (-1)
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int writer = rank % 2 == 0;
  int color = writer ? 0 : NO_COLOR;
  MPI_Comm writers = MPI_COMM_NULL;
  /* one communicator for the writers only */
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &writers);
  if (writers != MPI_COMM_NULL) {
    int n;
    MPI_Comm_size(writers, &n);
    if (writer) printf("rank %d: %d writers\n", rank, n);
    MPI_Comm_free(&writers);
  }
  MPI_Finalize();
  return 0;
}
