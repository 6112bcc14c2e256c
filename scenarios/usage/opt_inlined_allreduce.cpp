/* C++ at -O3: a solver's time-step reduction in an inline member function;
 * the two locals exist only in the inlined copy inside main's loop, so
 * their DWARF is a lexical block of an inlined subroutine. The count says 2
 * for one double (a leftover from reducing two values at once).
 * ranks: 2
 * expect: buffer-overflow rank 0|1 line 25
 * twin: opt_inlined_allreduce_ok -DFIXED
 */
#include <mpi.h>
#include <cstdio>

#ifdef FIXED
#define DT_COUNT 1
#else
#define DT_COUNT 2
#endif

class Solver {
 public:
  explicit Solver(int rank) : dt_(1.0 + rank) {}
  inline double stable_dt() {
    double local = dt_ * 0.5;
    double global = 0.0;
    for (int k = 0; k < 3; ++k) local = local * 0.9 + k * 1e-3;
    MPI_Allreduce(&local, &global, DT_COUNT, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    return global;
  }
  void advance(double dt) { dt_ = dt_ * 0.99 + dt * 0.01; }

 private:
  double dt_;
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Solver s(rank);
  double t = 0.0;
  for (int step = 0; step < 5; ++step) {
    const double dt = s.stable_dt();
    s.advance(dt);
    t += dt;
  }
  if (rank == 0) std::printf("t=%g\n", t);
  MPI_Finalize();
  return 0;
}
