/* Task farm: the master sends the next task ahead, then both meet at the
 * round's barrier. The worker pre-posts the receive of that next task and,
 * after the barrier, clears the task slot "for the next task" — which the
 * message had already filled — before MPI_Wait.
 * ranks: 2
 * expect: receive-buffer-written rank 1 line 36
 */
#include <mpi.h>

#include "../spine/common_args.h"
#include <string.h>

#define TASK_WORDS 8
#define TASKS 3

struct task {
  int id;
  int words[TASK_WORDS];
};

int main(int argc, char** argv) {
  int rank, size;
  scenario_init(&argc, &argv, &rank, &size);
  struct task job = {0, {0}}, next;
  if (rank == 0) {
    for (int t = 0; t < TASKS; ++t) {
      job.id = t + 1;
      for (int i = 0; i < TASK_WORDS; ++i) job.words[i] = t * 100 + i;
      MPI_Send(&job, (int)sizeof job, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
    }
  } else if (rank == 1) {
    long result = 0;
    for (int t = 0; t < TASKS; ++t) {
      MPI_Request req;
      MPI_Irecv(&next, (int)sizeof next, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &req);
      for (int i = 0; i < TASK_WORDS; ++i) result += job.words[i];
      MPI_Barrier(MPI_COMM_WORLD);
      memset(&next, 0, sizeof next);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      job = next;
    }
  }
  MPI_Finalize();
  return 0;
}
