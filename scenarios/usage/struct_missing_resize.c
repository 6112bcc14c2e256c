/* Mesh cells whose (id, owner) header is exchanged with a struct datatype
 * covering only the header, sent as many cells: without
 * MPI_Type_create_resized the datatype's extent is 8 bytes, not
 * sizeof(cell_t), so every cell after the first is read from the wrong bytes.
 * ranks: 2
 * expect: buffer-type-mismatch rank 0 line 40
 */
#include <mpi.h>
#include <stddef.h>
#include <stdlib.h>

typedef struct {
  int id;
  int owner;
  double volume;
  double centroid[2];
} cell_t;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int self;
  MPI_Comm_rank(MPI_COMM_WORLD, &self);
  const int ncells = 32;
  cell_t* cells = calloc(ncells, sizeof(cell_t));
  for (int c = 0; c < ncells; ++c) {
    cells[c].id = c;
    cells[c].owner = self;
  }
  int blocklen[2] = {1, 1};
  MPI_Aint disp[2] = {offsetof(cell_t, id), offsetof(cell_t, owner)};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  MPI_Datatype header_t;
  MPI_Type_create_struct(2, blocklen, disp, types, &header_t);
  MPI_Type_commit(&header_t);
  if (self == 1) {
    MPI_Status st;
    MPI_Recv(cells, ncells, header_t, 0, 3, MPI_COMM_WORLD, &st);
  }
  if (self == 0)
    MPI_Send(cells, ncells, header_t, 1, 3, MPI_COMM_WORLD);
  MPI_Type_free(&header_t);
  free(cells);
  MPI_Finalize();
  return 0;
}
