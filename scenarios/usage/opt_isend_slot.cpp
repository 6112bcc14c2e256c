/* C++ at -O3: two faces packed into slots of one send buffer and sent with
 * MPI_Isend; the first send's count is one element larger than its slot, so
 * its message runs into the next face and the receiver's exact-size receive
 * is truncated (MPICH: "Message truncated").
 * ranks: 2
 * expect: buffer-overflow rank 0 line 33
 * twin: opt_isend_slot_ok -DFIXED
 */
#include <mpi.h>
#include <cstdio>
#include <vector>

#ifndef FIXED
static const int kFirstFaceExtra = 1;  // the bug: one element too many
#else
static const int kFirstFaceExtra = 0;
#endif
constexpr int kFace = 16;  // doubles per face


class Faces {
 public:
  Faces() : buf_(2 * kFace) {}
  void send_to(int peer) {
    for (int k = 0; k < 2 * kFace; ++k) buf_[k] = k * 0.25;
    MPI_Request req[2];
    for (int f = 0; f < 2; ++f) post(f, peer, &req[f]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }

 private:
  void post(int face, int peer, MPI_Request* req) {
    MPI_Isend(&buf_[face * kFace], kFace + (face == 0 ? kFirstFaceExtra : 0), MPI_DOUBLE, peer, face, MPI_COMM_WORLD, req);
  }
  std::vector<double> buf_;
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    Faces f;
    f.send_to(1);
  } else if (rank == 1) {
    std::vector<double> in(2 * kFace);
    MPI_Request req[2];
    for (int face = 0; face < 2; ++face)
      MPI_Irecv(&in[face * kFace], kFace, MPI_DOUBLE, 0, face, MPI_COMM_WORLD, &req[face]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    std::printf("faces %g %g\n", in[0], in[kFace]);
  }
  MPI_Finalize();
  return 0;
}
