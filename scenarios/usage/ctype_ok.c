/* Correct twin of the C-type checks: matching types, an unsigned counter
 * sent as MPI_UNSIGNED, a struct sent as bytes, a char array used as raw
 * storage for ints, and a contiguous derived type of doubles.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>
#include <string.h>

struct particle { double x, y; int id; };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long cells = 10L * rank, total = 0;
  MPI_Allreduce(&cells, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  unsigned steps = 3u;
  MPI_Bcast(&steps, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
  struct particle p = {1.0, 2.0, rank};
  char raw[64];
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  double xy[2] = {p.x, p.y};
  if (rank == 0) {
    MPI_Send(&p, (int)sizeof p, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    int ids[4] = {1, 2, 3, 4};
    memcpy(raw, ids, sizeof ids);
    MPI_Send(raw, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Send(xy, 1, pair, 1, 2, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&p, (int)sizeof p, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(raw, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(xy, 2, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Type_free(&pair);
  MPI_Finalize();
  return 0;
}
