/* Particles exchanged with a struct datatype whose displacements were
 * summed from sizeof() of the members, as if the struct had no padding:
 * the double coordinates really start at byte 8, not 4.
 * ranks: 2
 * expect: buffer-type-mismatch rank 0 line 39
 */
#include <mpi.h>
#include <stdio.h>

typedef struct {
  int id;
  double pos[3];
  float mass;
} particle_t;

#define NPART 8

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  particle_t parts[NPART];
  for (int p = 0; p < NPART; ++p) {
    parts[p].id = me * NPART + p;
    parts[p].pos[0] = parts[p].pos[1] = parts[p].pos[2] = 0.5 * p;
    parts[p].mass = 1.0f;
  }
  int lengths[3] = {1, 3, 1};
  MPI_Aint offsets[3] = {0, sizeof(int), sizeof(int) + 3 * sizeof(double)};
  MPI_Datatype kinds[3] = {MPI_INT, MPI_DOUBLE, MPI_FLOAT};
  MPI_Datatype particle_type, packed;
  MPI_Type_create_struct(3, lengths, offsets, kinds, &packed);
  MPI_Type_create_resized(packed, 0, sizeof(particle_t), &particle_type);
  MPI_Type_commit(&particle_type);
  if (me == 1) {
    MPI_Recv(parts, NPART, particle_type, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("first particle %d at %g\n", parts[0].id, parts[0].pos[0]);
  } else if (me == 0) {
    MPI_Send(parts, NPART, particle_type, 1, 7, MPI_COMM_WORLD);
  }
  MPI_Type_free(&particle_type);
  MPI_Type_free(&packed);
  MPI_Finalize();
  return 0;
}
