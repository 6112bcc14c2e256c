/* Communication-heavy microbenchmark: every rank loops over self-messages
 * (Irecv + Isend + Waitall) and empty Iprobes, so nearly all time is spent in
 * MPI calls. Prints seconds and intercepted calls per rank; run.sh runs it
 * bare and under the injector and reports ns per intercepted call.
 * With "allreduce" every iteration is one MPI_Allreduce of one int instead
 * (the collective fast path, at any number of ranks).
 * usage: inject_microbench [iterations] [p2p|allreduce|heap] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static double user_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
}
static double sys_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long iters = argc > 1 ? atol(argv[1]) : 200000;
  int allreduce = argc > 2 && argv[2][0] == 'a';
  int out = rank, stack_in = -1, flag = 0;
  /* "heap": receive into a heap int (guard_receives protects its page; a
   * stack buffer smaller than a page is never guarded). */
  int* heap_in = malloc(sizeof(int));
  int* in_ptr = argc > 2 && argv[2][0] == 'h' ? heap_in : &stack_in;
  MPI_Request rq[2];
  for (long i = 0; i < 1000; ++i) { /* warm up */
    MPI_Irecv(in_ptr, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&out, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime(), u0 = user_seconds(), s0 = sys_seconds();
  for (long i = 0; i < iters && allreduce; ++i) MPI_Allreduce(&out, in_ptr, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (long i = 0; i < iters && !allreduce; ++i) {
    MPI_Irecv(in_ptr, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&out, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Iprobe(rank, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  }
  double t = MPI_Wtime() - t0, u = user_seconds() - u0, sy = sys_seconds() - s0;
  double tmax = 0, umax = 0, smax = 0;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&u, &umax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sy, &smax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  /* cpu time: robust on a shared machine, where wall time includes waiting
   * for a core; sys is mostly the kernel's page-cache work for the trace */
  if (rank == 0)
    printf("seconds %.6f cpu %.6f user %.6f sys %.6f calls %ld\n", tmax, umax + smax, umax, smax,
           allreduce ? iters : iters * 4);
  MPI_Finalize();
  return 0;
}
