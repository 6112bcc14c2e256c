/* Oversubscription benchmark (the measured-facts ring): every iteration a
 * ring exchange (Isend/Irecv/Waitall) and an Allreduce. Prints microseconds
 * per iteration of the slowest rank.
 * usage: inject_oversub [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iters = argc > 1 ? atoi(argv[1]) : 20;
  int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  double out = rank, in = 0, sum = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int it = 0; it < iters; ++it) {
    MPI_Request rq[2];
    MPI_Irecv(&in, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&out, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Allreduce(&in, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  double t = MPI_Wtime() - t0, tmax = 0;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("us_per_iter %.1f sum %.0f\n", tmax / iters * 1e6, sum);
  MPI_Finalize();
  return 0;
}
