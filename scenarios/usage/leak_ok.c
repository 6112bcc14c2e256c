/* Correct twin: communicator, datatype, groups and op all freed.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>

static void maxop(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  int *a = in, *b = inout;
  for (int i = 0; i < *len; ++i) b[i] = a[i] > b[i] ? a[i] : b[i];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Group g;
  MPI_Comm_group(dup, &g);
  MPI_Op op;
  MPI_Op_create(maxop, 1, &op);
  int v[2] = {1, 2}, r[2];
  MPI_Allreduce(v, r, 2, MPI_INT, op, dup);
  MPI_Bcast(v, 1, pair, 0, dup);
  MPI_Op_free(&op);
  MPI_Group_free(&g);
  MPI_Type_free(&pair);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
