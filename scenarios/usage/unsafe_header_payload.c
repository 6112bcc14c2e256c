/* A header/payload protocol whose receiver asks for the payload first:
 * the sender's header send can only complete while MPI buffers it.
 * ranks: 2
 * expect: potential-deadlock rank 0 line 25
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { TAG_HEADER = 100, TAG_PAYLOAD = 101 };

struct header {
  int nitems;
  int checksum;
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int payload[16];
  struct header h = {16, 0};
  if (me == 0) {
    for (int i = 0; i < 16; ++i) h.checksum += payload[i] = i * i;
    MPI_Send(&h, 2, MPI_INT, 1, TAG_HEADER, MPI_COMM_WORLD);
    MPI_Send(payload, h.nitems, MPI_INT, 1, TAG_PAYLOAD, MPI_COMM_WORLD);
  } else if (me == 1) {
    memset(payload, 0, sizeof payload);
    MPI_Recv(payload, 16, MPI_INT, 0, TAG_PAYLOAD, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&h, 2, MPI_INT, 0, TAG_HEADER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("%d items, checksum %d\n", h.nitems, h.checksum);
  }
  MPI_Finalize();
  return 0;
}
