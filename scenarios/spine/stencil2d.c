/* stencil2d — clean 2-D Jacobi stencil with halo exchange (a "clean twin").
 *
 * The ranks form a 2-D Cartesian grid (MPI_Dims_create); each owns an
 * --n x --n block of a Laplace problem (top boundary 1, other boundaries 0).
 * Every iteration: halo exchange with the four neighbours via
 * MPI_Isend/MPI_Irecv + MPI_Waitall (columns through an MPI_Type_vector),
 * one Jacobi sweep, and MPI_Allreduce of the squared residual. At the end
 * rank 0 repeats the whole computation serially on the global grid and
 * compares the global sum: any halo mistake changes it.
 *
 * Arguments: --iterations N (default 50), --n N local block edge (default 16).
 * Scales: any.
 * What scalefuzz must report: outcome ok at every scale and noise mode; a
 * non-zero exit ("stencil2d: WRONG ...") means data was corrupted or
 * misrouted.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common_args.h"

#define AT(grid, i, j, width) ((grid)[(size_t)(i) * (size_t)(width) + (size_t)(j)])

/* One Jacobi sweep over the interior rows x cols of grids with a one-cell
 * ghost frame; returns the sum of squared changes. */
static double jacobi_sweep(const double* old_grid, double* new_grid, int rows, int cols) {
  int width = cols + 2;
  double change = 0;
  for (int i = 1; i <= rows; ++i)
    for (int j = 1; j <= cols; ++j) {
      double v = 0.25 * (AT(old_grid, i - 1, j, width) + AT(old_grid, i + 1, j, width) +
                         AT(old_grid, i, j - 1, width) + AT(old_grid, i, j + 1, width));
      double d = v - AT(old_grid, i, j, width);
      change += d * d;
      AT(new_grid, i, j, width) = v;
    }
  return change;
}

/* Fixed boundary: the ghost row above global row 0 is 1, everything else 0. */
static void set_top_boundary(double* grid, int cols) {
  for (int j = 0; j < cols + 2; ++j) grid[j] = 1.0;
}

static double interior_sum(const double* grid, int rows, int cols) {
  double s = 0;
  for (int i = 1; i <= rows; ++i)
    for (int j = 1; j <= cols; ++j) s += AT(grid, i, j, cols + 2);
  return s;
}

static void exchange_halos(double* grid, int n, MPI_Comm cart, MPI_Datatype column) {
  int up, down, left, right;
  MPI_Cart_shift(cart, 0, 1, &up, &down);
  MPI_Cart_shift(cart, 1, 1, &left, &right);
  int w = n + 2;
  MPI_Request requests[8];
  MPI_Status statuses[8];
  MPI_Irecv(&AT(grid, 0, 1, w), n, MPI_DOUBLE, up, 1, cart, &requests[0]);
  MPI_Irecv(&AT(grid, n + 1, 1, w), n, MPI_DOUBLE, down, 2, cart, &requests[1]);
  MPI_Irecv(&AT(grid, 1, 0, w), 1, column, left, 3, cart, &requests[2]);
  MPI_Irecv(&AT(grid, 1, n + 1, w), 1, column, right, 4, cart, &requests[3]);
  MPI_Isend(&AT(grid, 1, 1, w), n, MPI_DOUBLE, up, 2, cart, &requests[4]);
  MPI_Isend(&AT(grid, n, 1, w), n, MPI_DOUBLE, down, 1, cart, &requests[5]);
  MPI_Isend(&AT(grid, 1, 1, w), 1, column, left, 4, cart, &requests[6]);
  MPI_Isend(&AT(grid, 1, n, w), 1, column, right, 3, cart, &requests[7]);
  MPI_Waitall(8, requests, statuses);
}

/* The same problem solved serially on the whole grid, for the self-check. */
static double serial_reference_sum(int rows, int cols, long iterations) {
  size_t cells = (size_t)(rows + 2) * (size_t)(cols + 2);
  double* a = calloc(cells, sizeof(double));
  double* b = calloc(cells, sizeof(double));
  set_top_boundary(a, cols);
  set_top_boundary(b, cols);
  for (long it = 0; it < iterations; ++it) {
    jacobi_sweep(a, b, rows, cols);
    double* t = a;
    a = b;
    b = t;
  }
  double s = interior_sum(a, rows, cols);
  free(a);
  free(b);
  return s;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iterations = 50, n_option = 16;
  struct int_option options[] = {{"--iterations", &iterations, 1}, {"--n", &n_option, 1}};
  if (parse_int_options(argc, argv, options, 2) != 0) MPI_Abort(MPI_COMM_WORLD, 2);
  int n = (int)n_option;

  int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  int rank;
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 2, coords);

  MPI_Datatype column;
  MPI_Type_vector(n, 1, n + 2, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);

  size_t cells = (size_t)(n + 2) * (size_t)(n + 2);
  double* a = calloc(cells, sizeof(double));
  double* b = calloc(cells, sizeof(double));
  if (coords[0] == 0) {
    set_top_boundary(a, n);
    set_top_boundary(b, n);
  }
  double residual = 0;
  for (long it = 0; it < iterations; ++it) {
    exchange_halos(a, n, cart, column);
    double local = jacobi_sweep(a, b, n, n);
    MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, cart);
    double* t = a;
    a = b;
    b = t;
  }
  double local_sum = interior_sum(a, n, n), global_sum = 0;
  MPI_Reduce(&local_sum, &global_sum, 1, MPI_DOUBLE, MPI_SUM, 0, cart);

  int wrong = 0;
  if (rank == 0) {
    double expected = serial_reference_sum(dims[0] * n, dims[1] * n, iterations);
    wrong = !(fabs(global_sum - expected) <= 1e-9 * fmax(1.0, fabs(expected)));
    if (wrong)
      printf("stencil2d: WRONG sum %.15g, serial reference %.15g\n", global_sum, expected);
    else
      printf("stencil2d: OK ranks=%d grid=%dx%d iterations=%ld residual=%.6e sum=%.12g\n", size,
             dims[0] * n, dims[1] * n, iterations, sqrt(residual), global_sum);
  }
  MPI_Bcast(&wrong, 1, MPI_INT, 0, cart);
  MPI_Type_free(&column);
  MPI_Comm_free(&cart);
  free(a);
  free(b);
  MPI_Finalize();
  return wrong ? 1 : 0;
}
