/* Correct twin of the recv_overlap_* scenarios: overlapping windows of a
 * signal are SENT through a datatype with overlapping entries (allowed:
 * only receives must not overlap) and received into a flat array.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int who;
  MPI_Comm_rank(MPI_COMM_WORLD, &who);
  float signal[32];
  for (int i = 0; i < 32; ++i) signal[i] = (float)i;
  MPI_Datatype overlapping;
  MPI_Type_vector(3, 8, 4, MPI_FLOAT, &overlapping);
  MPI_Type_commit(&overlapping);
  if (who == 0) {
    MPI_Ssend(signal, 1, overlapping, 1, 21, MPI_COMM_WORLD);
  } else if (who == 1) {
    float frames[24];
    MPI_Recv(frames, 24, MPI_FLOAT, 0, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("frame 1 starts at %g\n", frames[8]);
  }
  MPI_Type_free(&overlapping);
  MPI_Finalize();
  return 0;
}
