/* A message whose header word is stamped "final" after the send was
 * posted, before MPI_Wait (the receiver may see either value).
 * ranks: 2
 * expect: buffer-modified rank 0 line 21
 */
#include <mpi.h>
#include <stdio.h>

#define LEN 20000

int message[LEN];

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Request req;
  if (rank == 0) {
    message[0] = 1;
    for (int i = 1; i < LEN; ++i) message[i] = i;
    MPI_Isend(message, LEN, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
    message[0] = 2;
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else {
    MPI_Irecv(message, LEN, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    printf("header %d\n", message[0]);
  }
  MPI_Finalize();
  return 0;
}
