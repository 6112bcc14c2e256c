/* A worker posts the receive for its next task early, then "resets" the task
 * buffer for the new round while the receive is pending: the memset writes a
 * buffer MPI owns (the write lands before the message does, so the payload
 * checks see the right bytes at the end; the standard forbids it anyway).
 * ranks: 2
 * mode: guard-receives
 * expect: receive-buffer-accessed rank 1 line 34
 * twin: guard_clear_ok -DFIXED
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../spine/common_args.h"

#define TASK 128

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  int* task = malloc(TASK * sizeof(int));
  for (int round = 0; round < 3; ++round) {
    if (rank == 0) {
      for (int i = 0; i < TASK; ++i) task[i] = round * TASK + i;
      MPI_Barrier(MPI_COMM_WORLD); /* the worker is ready */
      MPI_Send(task, TASK, MPI_INT, 1, round, MPI_COMM_WORLD);
    } else if (rank == 1) {
      MPI_Request req;
#ifdef FIXED
      memset(task, 0, TASK * sizeof(int));
#endif
      MPI_Irecv(task, TASK, MPI_INT, 0, round, MPI_COMM_WORLD, &req);
#ifndef FIXED
      memset(task, 0, TASK * sizeof(int));
#endif
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      long sum = 0;
      for (int i = 0; i < TASK; ++i) sum += task[i];
      if (sum != (long)TASK * round * TASK + (long)TASK * (TASK - 1) / 2) return 1;
    } else {
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }
  free(task);
  MPI_Finalize();
  return 0;
}
