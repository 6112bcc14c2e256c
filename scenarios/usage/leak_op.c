/* A user reduction op created and never freed.
 * ranks: 2
 * expect: leaked-handle rank 0 line 21
 */
#include <mpi.h>

static void absmax(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  double *a = in, *b = inout;
  for (int i = 0; i < *len; ++i) {
    double x = a[i] < 0 ? -a[i] : a[i], y = b[i] < 0 ? -b[i] : b[i];
    b[i] = x > y ? x : y;
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Op op;
  MPI_Op_create(absmax, 1, &op);
  double v = rank ? -3.0 : 2.0, r = 0;
  MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
