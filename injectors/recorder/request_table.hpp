// The recorder's live requests, keyed by MPI handle but identified by the
// recorder's own id. MPI may return one handle for several live requests:
// MPICH 4.0.2 returns the same handle (0x6c000001) for every Isend that
// completes at once (eager), so three eager Isends and a Waitall carry three
// equal handles. The first live request of a handle sits in a hash map; the
// later ones with the same handle wait in a small side list. A completion
// picks, among the live requests of a handle, the one posted into the same
// MPI_Request variable (`slot`: the address the post wrote the handle to),
// else the oldest — the common patterns `Isend(&r[i]) ... Waitall(r)` and
// `Isend(&r) ... Wait(&r)` are exact; requests whose handles the application
// copies elsewhere before completing them fall back to posting order.
// Not thread-safe: callers hold the state lock.
#pragma once

#include <cstdint>
#include <vector>

#include "int_map.hpp"

namespace scalefuzz::inject {

// Info needs `std::uint64_t id` (unique, increasing with posting order) and
// `std::uintptr_t slot`.
template <class Info>
class RequestTable {
 public:
  void add(std::int64_t handle, const Info& info) {
    if (first_.find(handle) == nullptr)
      first_.insert_absent(handle, info);
    else
      more_.push_back(Shared{handle, info});
  }

  // The live request of `handle` a completion through `slot` completes.
  // Requests whose id is in `taken[0..ntaken)` are skipped (already chosen for
  // another position of the same multi-request call).
  Info* pick(std::int64_t handle, std::uintptr_t slot, const std::uint64_t* taken = nullptr, int ntaken = 0) {
    Info* first = first_.find(handle);
    if (first == nullptr) return nullptr;
    if (more_.empty()) return is_taken(first->id, taken, ntaken) ? nullptr : first;
    Info* best = nullptr;
    auto consider = [&](Info* c) {
      if (is_taken(c->id, taken, ntaken)) return;
      bool c_slot = c->slot == slot, best_slot = best != nullptr && best->slot == slot;
      if (best == nullptr || (c_slot && !best_slot) || (c_slot == best_slot && c->id < best->id)) best = c;
    };
    consider(first);
    for (auto& m : more_)
      if (m.handle == handle) consider(&m.info);
    return best;
  }

  // True when more than one live request has `handle`.
  bool shared(std::int64_t handle) const {
    for (const auto& m : more_)
      if (m.handle == handle) return true;
    return false;
  }

  Info* find(std::int64_t handle, std::uint64_t id) {
    Info* first = first_.find(handle);
    if (first == nullptr) return nullptr;
    if (first->id == id) return first;
    for (auto& m : more_)
      if (m.handle == handle && m.info.id == id) return &m.info;
    return nullptr;
  }

  // Removes the request `id` of `handle`; the oldest remaining request with
  // that handle (if any) takes the map's place.
  bool erase(std::int64_t handle, std::uint64_t id) {
    Info* first = first_.find(handle);
    if (first == nullptr) return false;
    if (first->id == id) {
      std::size_t oldest = more_.size();
      for (std::size_t i = 0; i < more_.size(); ++i)
        if (more_[i].handle == handle && (oldest == more_.size() || more_[i].info.id < more_[oldest].info.id))
          oldest = i;
      if (oldest == more_.size()) return first_.erase(handle);
      *first = more_[oldest].info;
      remove_more(oldest);
      return true;
    }
    for (std::size_t i = 0; i < more_.size(); ++i)
      if (more_[i].handle == handle && more_[i].info.id == id) {
        remove_more(i);
        return true;
      }
    return false;
  }

  std::size_t size() const { return first_.size() + more_.size(); }

 private:
  struct Shared {
    std::int64_t handle;
    Info info;
  };
  static bool is_taken(std::uint64_t id, const std::uint64_t* taken, int n) {
    for (int i = 0; i < n; ++i)
      if (taken[i] == id) return true;
    return false;
  }
  void remove_more(std::size_t i) {
    more_[i] = more_.back();
    more_.pop_back();
  }
  IntMap<Info> first_;
  std::vector<Shared> more_;
};

}  // namespace scalefuzz::inject
