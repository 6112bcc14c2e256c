/* Master/worker task farm whose result depends on arrival order (issue 29).
 * Rank 0 hands out --tasks tasks (the task number as payload) to ranks
 * 1..N-1, receives each result with MPI_Recv(MPI_ANY_SOURCE) and hands the
 * sender the next task. The bug: results are stored at the next free slot
 * ("results[received++]") instead of at their task number, as a first
 * version of many task farms does; the final table is then in arrival
 * order, and the check against the serial table fails whenever two workers
 * finish out of order. Workers compute for a time that depends on the task
 * and their rank, so that happens in most runs with 3 or more workers.
 * --safe: the result carries its task number and is stored there.
 * Outcome: exit 1 with "wrong result" on stderr; --safe always exits 0.
 * scalefuzz replay of a failing run must fail again the same way. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kTagTask = 1, kTagResult = 2, kTagStop = 3 };

static long work(int task) { return (long)task * task + 7; }

int main(int argc, char** argv) {
  int tasks = 24, safe = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--safe") == 0) safe = 1;
    else if (strcmp(argv[i], "--tasks") == 0 && i + 1 < argc) tasks = atoi(argv[++i]);
  }
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 3) {
    if (rank == 0) fprintf(stderr, "master_worker needs at least 3 ranks\n");
    MPI_Finalize();
    return 2;
  }
  if (rank == 0) {
    long* results = calloc((size_t)tasks, sizeof(long));
    int next = 0, received = 0;
    for (int w = 1; w < size && next < tasks; ++w, ++next) MPI_Send(&next, 1, MPI_INT, w, kTagTask, MPI_COMM_WORLD);
    while (received < tasks) {
      long msg[2];
      MPI_Status st;
      MPI_Recv(msg, 2, MPI_LONG, MPI_ANY_SOURCE, kTagResult, MPI_COMM_WORLD, &st);
      if (safe)
        results[msg[0]] = msg[1];
      else
        results[received] = msg[1];  /* BUG: arrival order, not task order */
      ++received;
      if (next < tasks) {
        MPI_Send(&next, 1, MPI_INT, st.MPI_SOURCE, kTagTask, MPI_COMM_WORLD);
        ++next;
      } else {
        int none = -1;
        MPI_Send(&none, 1, MPI_INT, st.MPI_SOURCE, kTagStop, MPI_COMM_WORLD);
      }
    }
    for (int w = 1; w < size; ++w) {
      /* workers that never got a task (more workers than tasks) */
      if (w > tasks) {
        int none = -1;
        MPI_Send(&none, 1, MPI_INT, w, kTagStop, MPI_COMM_WORLD);
      }
    }
    int wrong = 0;
    for (int t = 0; t < tasks; ++t) wrong += results[t] != work(t);
    printf("master_worker: %d tasks, %d results out of place\n", tasks, wrong);
    free(results);
    if (wrong) fprintf(stderr, "wrong result: %d of %d results out of place\n", wrong, tasks);
    MPI_Finalize();
    return wrong ? 1 : 0;
  }
  for (;;) {
    int task;
    MPI_Status st;
    MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    if (st.MPI_TAG == kTagStop) break;
    usleep((useconds_t)(100 + 150 * ((task * 7 + rank * 3) % 5)));
    long msg[2] = {task, work(task)};
    MPI_Send(msg, 2, MPI_LONG, 0, kTagResult, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
