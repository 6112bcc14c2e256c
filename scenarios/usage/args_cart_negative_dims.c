/* 2-D process grid set-up: the code asks for "as many rows as needed"
 * with -1, the convention of some other library, instead of calling
 * MPI_Dims_create (whose free entries are 0). MPI-4.0 §8.5.1: every entry
 * of dims must be positive. Fixed: MPI_Dims_create fills the grid.
 * ranks: 2
 * expect: invalid-argument rank 0|1 line 28
 * twin: args_cart_ok -DFIXED
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {1, 0}, periods[2] = {1, 0};
#ifdef FIXED
  MPI_Dims_create(size, 2, dims);
#else
  dims[1] = -1; /* "as many as needed" */
  if (size % 2 == 0) {
    dims[0] = 2;
    dims[1] = size / 2 > 1 ? size / 2 : -1;
  }
#endif
  MPI_Comm grid = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  if (grid != MPI_COMM_NULL) {
    int grank;
    MPI_Comm_rank(grid, &grank);
    printf("rank %d: grid rank %d\n", rank, grank);
    MPI_Comm_free(&grid);
  }
  MPI_Finalize();
  return 0;
}
