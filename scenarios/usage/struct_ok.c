/* Correct twin of the struct_* scenarios: the datatype is built from
 * offsetof() with the members' own MPI types and resized to sizeof, so any
 * number of samples can be gathered.
 * ranks: 2
 * expect: clean
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct sample {
  float t;
  short flags;
  double val[2];
  unsigned char station;
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int id, nranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &id);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  enum { PER_RANK = 6 };
  struct sample mine[PER_RANK];
  for (int s = 0; s < PER_RANK; ++s)
    mine[s] = (struct sample){0.1f * s, (short)s, {id + 1.0, id - 1.0}, (unsigned char)id};
  int counts[4] = {1, 1, 2, 1};
  MPI_Aint at[4] = {offsetof(struct sample, t), offsetof(struct sample, flags), offsetof(struct sample, val),
                    offsetof(struct sample, station)};
  MPI_Datatype of[4] = {MPI_FLOAT, MPI_SHORT, MPI_DOUBLE, MPI_UNSIGNED_CHAR};
  MPI_Datatype loose, sample_t;
  MPI_Type_create_struct(4, counts, at, of, &loose);
  MPI_Type_create_resized(loose, 0, sizeof(struct sample), &sample_t);
  MPI_Type_commit(&sample_t);
  struct sample* all = malloc((size_t)nranks * PER_RANK * sizeof(struct sample));
  MPI_Allgather(mine, PER_RANK, sample_t, all, PER_RANK, sample_t, MPI_COMM_WORLD);
  if (id == 0) printf("last station %u\n", all[nranks * PER_RANK - 1].station);
  free(all);
  MPI_Type_free(&sample_t);
  MPI_Type_free(&loose);
  MPI_Finalize();
  return 0;
}
