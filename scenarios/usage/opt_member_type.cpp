/* C++ at -O3: a mesh object on the heap sums its cell count over the ranks
 * in a member function; the member is a long, the datatype MPI_INT.
 * ranks: 2
 * expect: buffer-type-mismatch rank 0|1 line 25
 * twin: opt_member_type_ok -DFIXED
 */
#include <mpi.h>
#include <cstdio>

#ifdef FIXED
#define CELLS_TYPE MPI_LONG
#else
#define CELLS_TYPE MPI_INT
#endif

class Mesh {
 public:
  explicit Mesh(int rank) : cells_(1000L + rank) {
    for (int k = 0; k < 16; ++k) coords_[k] = k * 0.5 + rank;
  }
  double extent() const { return coords_[15] - coords_[0]; }
  long cells() const { return cells_; }
  void sum_cells() {
    // collective: every rank learns the global cell count
    MPI_Allreduce(MPI_IN_PLACE, &cells_, 1,
                  CELLS_TYPE, MPI_SUM, MPI_COMM_WORLD);
  }

 private:
  double coords_[16];
  long cells_;
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Mesh* mesh = new Mesh(rank);
  mesh->sum_cells();
  if (rank == 0) std::printf("cells=%ld extent=%g\n", mesh->cells(), mesh->extent());
  delete mesh;
  MPI_Finalize();
  return 0;
}
