/* Building a sub-communicator from a group; the groups are never freed.
 * ranks: 2
 * expect: leaked-handle rank 1 line 10
 */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Group world_group, first;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int members[1] = {0};
  MPI_Group_incl(world_group, 1, members, &first);
  MPI_Comm sub;
  MPI_Comm_create(MPI_COMM_WORLD, first, &sub);
  if (sub != MPI_COMM_NULL) MPI_Comm_free(&sub);
  MPI_Group_free(&first);
  MPI_Finalize();
  return 0;
}
