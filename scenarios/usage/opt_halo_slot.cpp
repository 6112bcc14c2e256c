/* C++ at -O3: halo receives into slots of one buffer, one slot per
 * neighbour, exactly as long as a face; the first receive's count is one
 * element larger than its slot and reaches into the next pending receive's
 * buffer (the messages themselves fit).
 * ranks: 3
 * expect: buffer-overflow rank 1 line 32
 * twin: opt_halo_slot_ok -DFIXED
 */
#include <mpi.h>
#include <cstdio>
#include <vector>

#ifdef FIXED
#define EXTRA 0
#else
#define EXTRA 1
#endif

constexpr int kFace = 16;

struct Halo {
  std::vector<double> recv, send;
  MPI_Request req[4];
  int nreq = 0;
  Halo() : recv(2 * kFace), send(2 * kFace) {}

  void exchange(int rank, int size) {
    const int left = rank - 1, right = rank + 1;
    nreq = 0;
    for (int k = 0; k < 2 * kFace; ++k) send[k] = rank + k * 1e-3;
    if (left >= 0 && right < size) {
      MPI_Irecv(&recv[0],
                kFace + EXTRA, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &req[nreq++]);
      MPI_Irecv(&recv[kFace], kFace, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &req[nreq++]);
    } else if (left >= 0) {
      MPI_Irecv(&recv[0], kFace, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &req[nreq++]);
    } else if (right < size) {
      MPI_Irecv(&recv[kFace], kFace, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &req[nreq++]);
    }
    if (left >= 0) MPI_Isend(&send[0], kFace, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &req[nreq++]);
    if (right < size) MPI_Isend(&send[kFace], kFace, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &req[nreq++]);
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
  }
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Halo h;
  for (int it = 0; it < 3; ++it) h.exchange(rank, size);
  if (rank == 1) std::printf("halo %g %g\n", h.recv[0], h.recv[kFace]);
  MPI_Finalize();
  return 0;
}
