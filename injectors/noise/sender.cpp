#include "sender.hpp"

#include <sys/prctl.h>
#include <time.h>

#include <chrono>

namespace scalefuzz::noise {

namespace {
std::uint64_t realtime_ns() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}
void sleep_ns(std::uint64_t ns) {
  timespec ts{static_cast<time_t>(ns / 1000000000ull), static_cast<long>(ns % 1000000000ull)};
  nanosleep(&ts, nullptr);
}
constexpr std::uint64_t kPollNs = 20000;  // between tests of started sends: keeps a shared core free
}  // namespace

int greq_query(void* extra_state, MPI_Status* status) {
  PMPI_Status_set_elements(status, MPI_BYTE, 0);  // a send's status carries no message
  PMPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  int rc = static_cast<GreqState*>(extra_state)->rc;
  status->MPI_ERROR = rc;
  return rc;
}
int greq_free(void* extra_state) {
  static_cast<GreqState*>(extra_state)->release();
  return MPI_SUCCESS;
}
int greq_cancel(void*, int) { return MPI_SUCCESS; }  // a deferred send still goes out

void Sender::start() {
  thread_ = std::thread([this] { run(); });
}

void Sender::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Sender::defer(MPI_Request persistent, std::uint64_t due, std::pair<int, MPI_Comm> channel, MPI_Request greq,
                   GreqState* greq_state, std::shared_ptr<BlockingDone> blocking,
                   std::unique_ptr<unsigned char[]> copy) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.emplace(std::make_pair(due, arrivals_++),
                   Item{persistent, channel, greq, greq_state, std::move(blocking), std::move(copy)});
    ++unstarted_[channel];
  }
  cv_.notify_all();
}

bool Sender::unstarted(std::pair<int, MPI_Comm> channel) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = unstarted_.find(channel);
  return it != unstarted_.end() && it->second > 0;
}

void Sender::finish(Item& it, int rc) {
  if (it.req != MPI_REQUEST_NULL) PMPI_Request_free(&it.req);
  it.copy.reset();
  if (it.greq != MPI_REQUEST_NULL) {
    it.greq_state->rc = rc;
    PMPI_Grequest_complete(it.greq);
    it.greq_state->release();
  }
  if (it.blocking) {
    it.blocking->rc = rc;
    it.blocking->done.store(true, std::memory_order_release);
  }
}

void Sender::run() {
  prctl(PR_SET_TIMERSLACK, 1UL);  // due times are microseconds apart: no 50 us timer slack
  std::vector<Item> inflight;
  for (;;) {
    std::vector<Item> due_now;
    bool stop = false;
    {
      std::unique_lock<std::mutex> lock(mu_);
      std::uint64_t now = realtime_ns();
      if (queue_.empty() && inflight.empty()) {
        if (stopping_) return;
        cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        continue;
      }
      if (!queue_.empty() && queue_.begin()->first.first > now && inflight.empty() && !stopping_) {
        auto wake = std::chrono::system_clock::time_point(
            std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::nanoseconds(queue_.begin()->first.first)));
        cv_.wait_until(lock, wake);
        continue;
      }
      stop = stopping_;
      // In due order: per channel due times are monotone, so MPI sees the
      // sends of one channel in program order (non-overtaking).
      while (!queue_.empty() && (stop || queue_.begin()->first.first <= now)) {
        due_now.push_back(std::move(queue_.begin()->second));
        queue_.erase(queue_.begin());
      }
    }
    for (Item& it : due_now) {
      int rc = PMPI_Start(&it.req);
      {
        std::lock_guard<std::mutex> lock(mu_);
        --unstarted_[it.channel];
      }
      if (rc != MPI_SUCCESS) finish(it, rc);
      else inflight.push_back(std::move(it));
    }
    for (std::size_t i = 0; i < inflight.size();) {
      int flag = 0;
      int rc = PMPI_Test(&inflight[i].req, &flag, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS || flag) {
        finish(inflight[i], rc);
        inflight.erase(inflight.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
    if (!inflight.empty()) {
      std::uint64_t wait = kPollNs;
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (!queue_.empty()) {
          std::uint64_t now = realtime_ns(), due = queue_.begin()->first.first;
          wait = due <= now ? 0 : std::min(wait, due - now);
        }
      }
      if (wait > 0) sleep_ns(wait);
    }
  }
}

}  // namespace scalefuzz::noise
