#include "scalefuzz/engine/scheduler.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace scalefuzz::engine {

void LocalPool::run(std::size_t count, const std::function<void(std::size_t)>& job, const std::atomic<bool>& stop) {
  const int workers = workers_;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  auto worker = [&] {
    for (;;) {
      if (stop.load() || failed.load()) return;
      std::size_t i = next.fetch_add(1);
      if (i >= count) return;
      try {
        job(i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
        failed = true;
      }
    }
  };
  std::size_t n = std::clamp<std::size_t>(static_cast<std::size_t>(std::max(workers, 1)), 1, std::max<std::size_t>(count, 1));
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < n; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace scalefuzz::engine
