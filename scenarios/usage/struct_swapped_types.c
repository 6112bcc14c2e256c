/* A lookup table of (value, index) records broadcast with a struct
 * datatype whose type list names the members in the wrong order: the
 * displacements come from offsetof, but MPI_INT is put where the double is.
 * ranks: 2
 * expect: buffer-type-mismatch rank 0|1 line 37
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

struct entry {
  double value;
  int index;
};

static struct entry table[16];

static MPI_Datatype entry_datatype(void) {
  int blocks[2] = {1, 1};
  MPI_Aint where[2] = {offsetof(struct entry, value), offsetof(struct entry, index)};
  MPI_Datatype members[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Datatype raw, t;
  MPI_Type_create_struct(2, blocks, where, members, &raw);
  MPI_Type_create_resized(raw, 0, sizeof(struct entry), &t);
  MPI_Type_free(&raw);
  MPI_Type_commit(&t);
  return t;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    for (int k = 0; k < 16; ++k) table[k] = (struct entry){k * 0.25, k};
  MPI_Datatype entry_t = entry_datatype();
  MPI_Bcast(table, 16, entry_t, 0, MPI_COMM_WORLD);
  printf("rank %d: table[3] = %g\n", rank, table[3].value);
  MPI_Type_free(&entry_t);
  MPI_Finalize();
  return 0;
}
