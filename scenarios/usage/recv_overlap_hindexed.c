/* Pairs of ints picked out of a row with MPI_Type_create_hindexed, whose
 * displacements are in BYTES, given element offsets instead: the blocks
 * of 2 ints at bytes 0, 2, 4 overlap, and a receive into such a datatype
 * is erroneous.
 * ranks: 2
 * expect: invalid-argument rank 1 line 29
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  int row[64];
  for (int i = 0; i < 64; ++i) row[i] = r * 100 + i;
  int lens[3] = {2, 2, 2};
  MPI_Aint element_offsets[3];
  for (int b = 0; b < 3; ++b) element_offsets[b] = 2 * b;
  MPI_Datatype pairs;
  MPI_Type_create_hindexed(3, lens, element_offsets, MPI_INT, &pairs);
  MPI_Type_commit(&pairs);
  MPI_Request rq;
  if (r == 0) {
    int flat[6] = {1, 2, 3, 4, 5, 6};
    MPI_Isend(flat, 6, MPI_INT, 1, 11, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
  } else if (r == 1) {
    MPI_Irecv(row, 1, pairs, 0, 11, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    printf("row[0..3] = %d %d %d %d\n", row[0], row[1], row[2], row[3]);
  }
  MPI_Type_free(&pairs);
  MPI_Finalize();
  return 0;
}
