/* Request/reply server with a persistent reply: the server starts the reply
 * and then records the next request's sequence number into the reply header
 * before the reply's send completed.
 * ranks: 2
 * expect: buffer-modified rank 0 line 31
 */
#include <mpi.h>

#include "../spine/common_args.h"

struct reply {
  int seq;
  int status;
  double value;
};

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  struct reply out = {0, 0, 0.0};
  int query = 0;
  if (rank == 0) {
    MPI_Request rep, ask;
    MPI_Send_init(&out, (int)sizeof out, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &rep);
    MPI_Recv_init(&query, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &ask);
    for (int n = 0; n < 3; ++n) {
      MPI_Start(&ask);
      MPI_Wait(&ask, MPI_STATUS_IGNORE);
      out.status = 0;
      out.value = query * 0.5;
      MPI_Start(&rep);
      out.seq = n + 1; /* bookkeeping for the next reply, too early */
      MPI_Wait(&rep, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&rep);
    MPI_Request_free(&ask);
  } else if (rank == 1) {
    for (int n = 0; n < 3; ++n) {
      query = n * 10;
      MPI_Send(&query, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
      MPI_Recv(&out, (int)sizeof out, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  MPI_Finalize();
  return 0;
}
