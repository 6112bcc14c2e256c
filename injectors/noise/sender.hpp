// The send thread (paper 5.1): starts deferred sends at their due time.
// A deferred send is a persistent request made by PMPI_Send_init on the
// application thread; the send thread calls PMPI_Start at the due time and
// polls it to completion. The application holds a generalized request that
// completes then, so MPI_Test on it says "not complete" until the send is
// done and every Wait/Test form handles it without help. No lock is held
// across any PMPI call.
#pragma once

#include <mpi.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace scalefuzz::noise {

// Completion of a blocking deferred send, shared with the waiting caller.
struct BlockingDone {
  std::atomic<bool> done{false};
  int rc = MPI_SUCCESS;
};

// Extra state of a deferred send's generalized request. MPI calls free_fn
// at MPI_Request_free, possibly before the send thread completes the request,
// so the sender and MPI each hold a reference; the last one deletes it.
struct GreqState {
  std::atomic<int> refs{2};
  int rc = MPI_SUCCESS;
  void release() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
};

class Sender {
 public:
  void start();
  // Stops after starting and completing everything queued.
  void stop();
  // Queues `persistent` (from PMPI_Send_init) for PMPI_Start at `due`
  // (CLOCK_REALTIME ns). At most one of `greq` (a generalized request the
  // sender completes) and `blocking` is set; neither for a send already
  // reported complete from its `copy` of the payload, which the sender keeps
  // until the send is done.
  void defer(MPI_Request persistent, std::uint64_t due, std::pair<int, MPI_Comm> channel, MPI_Request greq,
             GreqState* greq_state, std::shared_ptr<BlockingDone> blocking,
             std::unique_ptr<unsigned char[]> copy = nullptr);
  // Deferred sends to (dest, comm) not yet started: a later send there must
  // be deferred too, or it would overtake them.
  bool unstarted(std::pair<int, MPI_Comm> channel);

 private:
  struct Item {
    MPI_Request req = MPI_REQUEST_NULL;
    std::pair<int, MPI_Comm> channel;
    MPI_Request greq = MPI_REQUEST_NULL;
    GreqState* greq_state = nullptr;  // the generalized request's extra_state
    std::shared_ptr<BlockingDone> blocking;
    std::unique_ptr<unsigned char[]> copy;  // the payload of a send reported complete at once
  };
  void run();
  void finish(Item& it, int rc);

  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, Item> queue_;  // (due, arrival) -> item: FIFO per due time
  std::map<std::pair<int, MPI_Comm>, int> unstarted_;
  std::uint64_t arrivals_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

// Generalized-request callbacks; extra_state is a GreqState.
int greq_query(void* extra_state, MPI_Status* status);
int greq_free(void* extra_state);
int greq_cancel(void* extra_state, int complete);

}  // namespace scalefuzz::noise
