/* task_farm_abort — a worker finds a corrupt task and calls MPI_Abort while
 * the others wait (issue 35: an abort is the rank's own verdict).
 *
 * A task farm as in many real codes: rank 0 (the master) hands out --tasks
 * tasks of 16 doubles with a checksum, one per worker at a time; every
 * worker checks the checksum of each task it receives (MPI_Recv from 0),
 * computes a result and sends it back; the master waits for results with
 * MPI_Recv(MPI_ANY_SOURCE) and gives the sender the next task. At the end
 * the master sends a stop message to every worker and prints the total.
 *
 * The bug (default; --fixed 1 is the correct twin): task --bad-task B
 * (default: the middle one) gets its last element adjusted after its
 * checksum was taken, so whichever worker receives it finds the checksum
 * wrong, prints "task_farm: rank R: task B fails its checksum" on stderr and
 * calls MPI_Abort(MPI_COMM_WORLD, 3). At that moment the master is blocked
 * in its wildcard receive and the other workers are blocked in MPI_Recv
 * from the master (or computing): hang-shaped traces of ranks killed after
 * the abort.
 *
 * Arguments: --tasks T (default 24, >= 1), --bad-task B (default T/2),
 * --fixed 0|1, --work-us U (default 200: each task's compute time).
 * Scales: >= 2 ranks; the abort happens in every run at every scale.
 * Expected (bug): outcome mpi-abort naming the aborting worker and this
 * file's MPI_Abort line; MPI-PD: situation calculation-fault, faulty
 * processes {the aborting rank}, its failure event the MPI_Abort call;
 * PDG: an aborted-task finding for that rank at the MPI_Abort call.
 * Twin (--fixed 1): outcome ok, no MPI-PD or PDG finding.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../spine/common_args.h"

enum { kItems = 16, kTagTask = 1, kTagStop = 2, kTagResult = 3 };

struct task {
  double items[kItems];
  double checksum;
  int id;
};

static double sum_items(const struct task* t) {
  double s = 0;
  for (int i = 0; i < kItems; ++i) s += t->items[i];
  return s;
}

static void make_task(struct task* t, int id, int bad, int fixed) {
  t->id = id;
  for (int i = 0; i < kItems; ++i) t->items[i] = (double)(id * kItems + i) * 0.5;
  t->checksum = sum_items(t);
  /* BUG: the boundary correction is applied after the checksum was taken
   * (the twin recomputes the checksum after it). */
  if (bad) {
    t->items[kItems - 1] += 1.0;
    if (fixed) t->checksum = sum_items(t);
  }
}

static void busy_us(long us) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do clock_gettime(CLOCK_MONOTONIC, &now);
  while ((now.tv_sec - start.tv_sec) * 1000000L + (now.tv_nsec - start.tv_nsec) / 1000L < us);
}

static void worker(int rank, long work_us) {
  struct task t;
  for (;;) {
    MPI_Status status;
    MPI_Recv(&t, (int)sizeof t, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == kTagStop) return;
    if (sum_items(&t) != t.checksum) {
      fprintf(stderr, "task_farm: rank %d: task %d fails its checksum (%.1f, header says %.1f)\n", rank, t.id,
              sum_items(&t), t.checksum);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    busy_us(work_us);
    double result = 0;
    for (int i = 0; i < kItems; ++i) result += t.items[i] * t.items[i];
    MPI_Send(&result, 1, MPI_DOUBLE, 0, kTagResult, MPI_COMM_WORLD);
  }
}

static void master(int size, long tasks, long bad_task, int fixed) {
  struct task t;
  long next = 0, done = 0;
  double total = 0;
  for (int w = 1; w < size && next < tasks; ++w, ++next) {
    make_task(&t, (int)next, next == bad_task, fixed);
    MPI_Send(&t, (int)sizeof t, MPI_BYTE, w, kTagTask, MPI_COMM_WORLD);
  }
  while (done < next) {
    double result = 0;
    MPI_Status status;
    MPI_Recv(&result, 1, MPI_DOUBLE, MPI_ANY_SOURCE, kTagResult, MPI_COMM_WORLD, &status);
    total += result;
    ++done;
    if (next < tasks) {
      make_task(&t, (int)next, next == bad_task, fixed);
      MPI_Send(&t, (int)sizeof t, MPI_BYTE, status.MPI_SOURCE, kTagTask, MPI_COMM_WORLD);
      ++next;
    }
  }
  for (int w = 1; w < size; ++w) MPI_Send(&t, (int)sizeof t, MPI_BYTE, w, kTagStop, MPI_COMM_WORLD);
  printf("task_farm: %ld tasks, total %.1f\n", tasks, total);
}

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  scenario_init(&argc, &argv, &rank, &size);
  long tasks = 24, bad_task = -1, fixed = 0, work_us = 200;
  struct int_option opts[] = {
      {"--tasks", &tasks, 1}, {"--bad-task", &bad_task, 0}, {"--fixed", &fixed, 0}, {"--work-us", &work_us, 0}};
  if (parse_int_options(argc, argv, opts, 4) != 0 || size < 2 || fixed > 1) {
    if (rank == 0) fprintf(stderr, "task_farm_abort: needs >= 2 ranks and --fixed 0|1\n");
    MPI_Finalize();
    return 2;
  }
  if (bad_task < 0) bad_task = tasks / 2;
  if (rank == 0)
    master(size, tasks, bad_task, (int)fixed);
  else
    worker(rank, work_us);
  MPI_Finalize();
  return 0;
}
