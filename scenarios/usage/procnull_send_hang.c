/* The right neighbour is computed with the wrong bound (size - 1 instead
 * of size), so rank 0 of two sends its boundary to MPI_PROC_NULL; rank 1
 * waits for it forever.
 * ranks: 2
 * expect: invalid-argument rank 0 line 23
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int id, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &id);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int right = id + 1 < np - 1 ? id + 1 : MPI_PROC_NULL;
  int left = id > 0 ? id - 1 : MPI_PROC_NULL;
  double boundary[4] = {id, id, id, id};
  double ghost[4] = {0};
  MPI_Request got;
  MPI_Irecv(ghost, 4, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &got);
  double interior = 0;
  for (int i = 0; i < 1000; ++i) interior += 0.001 * i;
  MPI_Send(boundary, 4, MPI_DOUBLE, right, 9, MPI_COMM_WORLD);
  MPI_Wait(&got, MPI_STATUS_IGNORE);
  printf("rank %d: ghost %g interior %g\n", id, ghost[0], interior);
  MPI_Finalize();
  return 0;
}
