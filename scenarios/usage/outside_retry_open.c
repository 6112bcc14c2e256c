/* Rank 1 retries opening its input file forever (a path that never exists)
 * before it receives rank 0's parameters; rank 0 blocks in MPI_Ssend to it.
 * ranks: 2
 * expect: waits-for-rank-outside-mpi rank 0 line 27
 */
#include <mpi.h>

#include "../spine/common_args.h"
#include <stdio.h>
#include <unistd.h>

static FILE* open_input(const char* path) {
  FILE* f;
  while ((f = fopen(path, "r")) == NULL) usleep(1000); /* "the file will appear" */
  return f;
}

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  double params[4] = {1.0, 2.0, 3.0, 4.0};
  if (rank == 1) {
    FILE* in = open_input("/nonexistent/scalefuzz/input.dat");
    MPI_Recv(params, 4, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fclose(in);
  } else if (rank == 0) {
    MPI_Ssend(params, 4, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
