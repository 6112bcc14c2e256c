/* Stencil-like program: 1-D Jacobi relaxation with halo exchange
 * (Irecv/Isend/Waitall) every iteration and a residual Allreduce every 10.
 * Prints the loop time of the slowest rank; run.sh compares bare vs recorded.
 * usage: inject_stencil [points-per-rank] [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static double cpu_seconds(void) { /* user + system time of this rank */
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long n = argc > 1 ? atol(argv[1]) : 200000;
  int iters = argc > 2 ? atoi(argv[2]) : 200;
  double* u = calloc((size_t)n + 2, sizeof(double));
  double* v = calloc((size_t)n + 2, sizeof(double));
  for (long i = 1; i <= n; ++i) u[i] = (double)((rank * n + i) % 97);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime(), c0 = cpu_seconds(), residual = 0;
  for (int it = 0; it < iters; ++it) {
    MPI_Request rq[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &rq[1]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &rq[2]);
    MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &rq[3]);
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    double local = 0;
    for (long i = 1; i <= n; ++i) {
      v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
      local += (v[i] - u[i]) * (v[i] - u[i]);
    }
    double* t = u; u = v; v = t;
    if (it % 10 == 0) MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  double t = MPI_Wtime() - t0, tmax = 0, c = cpu_seconds() - c0, csum = 0;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&c, &csum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  /* cpu: summed over ranks; less sensitive than wall time to other load */
  if (rank == 0) printf("seconds %.6f cpu %.6f residual %.6e\n", tmax, csum, residual);
  free(u); free(v);
  MPI_Finalize();
  return 0;
}
