/* A master/worker task pool: which worker's result comes back first varies,
 * and (--safe) the result does not.
 *
 * Rank 0 hands out --iterations tasks, one at a time per worker: each
 * worker gets a task id (one MPI_Send line), computes f(id) and sends back
 * (id, f(id)) (one MPI_Send line, tag 7); rank 0 takes results with
 * MPI_Recv(MPI_ANY_SOURCE, 7) (one line) in whatever order they arrive and
 * hands the next task to the worker that answered (status.MPI_SOURCE); a
 * task id of -1 stops a worker.
 * --safe (the correct twin): rank 0 files each result under the task id it
 * carries; the last line, "checksum=N", is the same in every run.
 * --races (the default): rank 0 assumes results come back in the order it
 * handed out the tasks (a bug seen in real master/worker codes) and calls
 * the result of another task a wrong match (MPI_Abort(0), or counted with
 * --on-wrong count). Whether that shows depends on which worker answers
 * first: exploration forces the other one.
 * scalefuzz must report: --safe at most Info (benign nondeterminism);
 * the default an Error race at rank 0's MPI_Recv naming two workers' sends. */
#include "races_common.h"

static long task_value(long id) { return (id * 2654435761L) % 1000003L; }

int main(int argc, char** argv) {
  struct race_options o = {.iterations = 12, .steps = 1, .bytes = 8};
  int rank = 0, size = 1;
  race_start(&argc, &argv, &o, &rank, &size);
  if (size < 3) {
    if (rank == 0) fprintf(stderr, "task_pool needs at least 3 ranks (a master and two workers)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double t0 = MPI_Wtime();
  if (rank == 0) {
    long* result = calloc((size_t)o.iterations, sizeof(long));
    long next = 0, expected = 0, done = 0;
    for (int w = 1; w < size; ++w) {
      long id = next < o.iterations ? next++ : -1;
      MPI_Send(&id, 1, MPI_LONG, w, 5, MPI_COMM_WORLD);
    }
    while (done < o.iterations) {
      long got[2];
      MPI_Status st;
      MPI_Recv(got, 2, MPI_LONG, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
      if (!o.safe && got[0] != expected) race_wrong(&o, rank, done, "the result of another task");
      result[o.safe ? got[0] : expected] = got[1];
      ++expected;
      ++done;
      long id = next < o.iterations ? next++ : -1;
      MPI_Send(&id, 1, MPI_LONG, st.MPI_SOURCE, 5, MPI_COMM_WORLD);
    }
    long checksum = 0;
    for (long i = 0; i < o.iterations; ++i) checksum = (checksum * 31 + result[i]) % 1000000007L;
    printf("checksum=%ld\n", checksum);
    free(result);
  } else {
    for (;;) {
      long id = 0;
      MPI_Recv(&id, 1, MPI_LONG, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (id < 0) break;
      race_busy_us(o.compute_us);
      long out[2] = {id, task_value(id)};
      MPI_Send(out, 2, MPI_LONG, 0, 7, MPI_COMM_WORLD);
    }
  }
  race_finish(&o, rank, MPI_Wtime() - t0);
  MPI_Finalize();
  return 0;
}
