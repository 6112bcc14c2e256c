/* Every rank starts processes that detach from it the ways daemons do, then
 * the job hangs: the harness must find and kill all of them, at a timeout and
 * when it is itself SIGKILLed (issue 19, defects 6 and 7).
 *
 * Per rank: a child that calls setsid() and sleeps, and a grandchild left
 * behind by a double fork (the middle process exits at once) that also calls
 * setsid(). Each writes READY_DIR/<rank>-<kind> once it runs. Then every
 * rank waits for a message nobody sends.
 *
 * Usage: detaching_children READY_DIR */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void mark_ready(const char* dir, int rank, const char* kind) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%d-%s", dir, rank, kind);
  FILE* f = fopen(path, "w");
  if (f) fclose(f);
}

static void detached_sleeper(const char* dir, int rank, const char* kind) {
  setsid();
  mark_ready(dir, rank, kind);
  for (;;) pause();
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 2) MPI_Abort(MPI_COMM_WORLD, 2);
  const char* dir = argv[1];

  if (fork() == 0) detached_sleeper(dir, rank, "setsid");
  pid_t middle = fork();
  if (middle == 0) {
    if (fork() == 0) detached_sleeper(dir, rank, "double-fork");
    _exit(0);
  }
  waitpid(middle, NULL, 0);

  int never = 0;
  MPI_Recv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 4242, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
