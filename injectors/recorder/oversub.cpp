#include "oversub.hpp"

#include <time.h>

#include <algorithm>

#include "state.hpp"

namespace scalefuzz::inject {

namespace {
// Spin this many tests before sleeping: keeps latency low when the partner is
// about to answer, while a waiting rank still yields its core quickly.
class Backoff {
 public:
  void pause() {
    if (++tries_ <= g_state->oversub_spins) return;
    timespec ts{0, sleep_ns_};
    nanosleep(&ts, nullptr);
    if (sleep_ns_ < g_state->oversub_max_sleep_ns) sleep_ns_ = std::min(2 * sleep_ns_, g_state->oversub_max_sleep_ns);
  }

 private:
  int tries_ = 0;
  long sleep_ns_ = 1000;
};
}  // namespace

bool oversubscribed() { return g_state != nullptr && g_state->oversubscribe; }

int poll_request(MPI_Request* r, MPI_Status* st) {
  Backoff b;
  for (int flag = 0;;) {
    int rc = PMPI_Test(r, &flag, st);
    if (rc != MPI_SUCCESS || flag) return rc;
    b.pause();
  }
}

int poll_all(int n, MPI_Request* r, MPI_Status* st) {
  Backoff b;
  for (int flag = 0;;) {
    int rc = PMPI_Testall(n, r, &flag, st);
    if (rc != MPI_SUCCESS || flag) return rc;
    b.pause();
  }
}

int poll_any(int n, MPI_Request* r, int* index, MPI_Status* st) {
  Backoff b;
  for (int flag = 0;;) {
    int rc = PMPI_Testany(n, r, index, &flag, st);
    if (rc != MPI_SUCCESS || flag) return rc;
    b.pause();
  }
}

int poll_some(int n, MPI_Request* r, int* outcount, int* indices, MPI_Status* st) {
  Backoff b;
  for (;;) {
    int rc = PMPI_Testsome(n, r, outcount, indices, st);
    if (rc != MPI_SUCCESS || *outcount != 0) return rc;  // >0 done, MPI_UNDEFINED: nothing active
    b.pause();
  }
}

int poll_probe(int source, int tag, MPI_Comm comm, MPI_Status* st) {
  Backoff b;
  for (int flag = 0;;) {
    int rc = PMPI_Iprobe(source, tag, comm, &flag, st);
    if (rc != MPI_SUCCESS || flag) return rc;
    b.pause();
  }
}

int poll_mprobe(int source, int tag, MPI_Comm comm, MPI_Message* msg, MPI_Status* st) {
  Backoff b;
  for (int flag = 0;;) {
    int rc = PMPI_Improbe(source, tag, comm, &flag, msg, st);
    if (rc != MPI_SUCCESS || flag) return rc;
    b.pause();
  }
}

int run_blocking(Invoke call, NbInvoke nb, MPI_Status* st) {
  if (!oversubscribed() || !nb) return call();
  MPI_Request r = MPI_REQUEST_NULL;
  int rc = nb(&r);
  if (rc != MPI_SUCCESS) return rc;
  return poll_request(&r, st);
}

}  // namespace scalefuzz::inject
