/* Coefficients received as 3 doubles through a datatype resized to the
 * extent of a float (a copy-paste slip from the single-precision
 * version): the three 8-byte entries start 4 bytes apart and overlap.
 * ranks: 2
 * expect: invalid-argument rank 1 line 32
 */
#include <mpi.h>
#include <stdio.h>

static double coeff[3];

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Datatype one, three;
  MPI_Type_create_resized(MPI_DOUBLE, 0, sizeof(float), &one);
  MPI_Type_contiguous(3, one, &three);
  MPI_Type_commit(&three);
  switch (me) {
    case 0: {
      double c[3] = {0.5, 0.25, 0.125};
      MPI_Send(c, 3, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD);
      break;
    }
    case 1: {
      MPI_Status status;
      int got = 0;
      MPI_Probe(0, 5, MPI_COMM_WORLD, &status);
      MPI_Get_count(&status, MPI_DOUBLE, &got);
      if (got != 3) fprintf(stderr, "unexpected size %d\n", got);
      MPI_Recv(coeff, 1, three, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("c0 = %g\n", coeff[0]);
      break;
    }
  }
  MPI_Type_free(&three);
  MPI_Type_free(&one);
  MPI_Finalize();
  return 0;
}
