// Memory-mapped per-rank files. Stores go straight into shared file pages, so
// after SIGKILL the kernel still writes back everything stored before it.
#pragma once

#include <pthread.h>
#include <semaphore.h>

#include <cstddef>
#include <cstdint>

#include "scalefuzz/trace/format.hpp"

namespace scalefuzz::inject {

// A file of FileHeader + fixed-size records, mapped once at a fixed capacity
// (the file is sparse: untouched records cost no disk space).
class FixedMapping {
 public:
  // Creates (truncating) `path` with room for `capacity` records after the
  // header and stores `header`. Returns false (errno set) on failure.
  bool open(const char* path, const trace::FileHeader& header, std::size_t record_size, std::size_t capacity);
  void* records() const { return base_ == nullptr ? nullptr : base_ + sizeof(trace::FileHeader); }
  std::size_t capacity() const { return capacity_; }
  // Shrinks the file to `used` records (at finalize; no stores may follow).
  void truncate_to(std::size_t used);
  // Replaces the file at `path` (this mapping's) by the header and only the
  // records for which `keep(record)` is true, written to path.tmp and renamed
  // over it (at finalize; the mapping stays valid). Returns false on failure
  // (the mapped file is left as it was).
  bool rewrite_kept(const char* path, bool (*keep)(const void* record));

 private:
  unsigned char* base_ = nullptr;
  std::size_t record_size_ = 0;
  std::size_t capacity_ = 0;
  int fd_ = -1;
};

// The events file: a large reserved address range into which the file is
// mapped chunk by chunk as it grows, so record addresses never move.
// Growing costs the kernel ~0.9 µs per 4 KiB page (the chunk is written as
// zeros, then mapped and populated; ~30 ns per recorded call); with
// start_prefault() a helper thread grows the file ahead of the writers, off
// the application's critical path. Writers wake it once per chunk (one
// sem_post). On a machine whose cores are all busy (2 ranks polling on 2
// cores) the helper's kernel time is still taken from a rank.
class EventLog {
 public:
  bool open(const char* path, const trace::FileHeader& header);
  // Starts the helper thread that keeps `ahead_chunks` chunks mapped and
  // populated beyond the last reserved record. Returns false (and the log
  // keeps growing synchronously) when the thread cannot be created.
  bool start_prefault(unsigned ahead_chunks);
  // Stops and joins the helper thread (before truncate_to_used()).
  void stop_prefault();
  // Size cap: at most `max_records` records; the first reservation beyond
  // it writes `note` (a text line) to `note_path` and fails, as do all later
  // ones. Call before recording starts.
  void set_cap(std::uint64_t max_records, const char* note_path, const char* note);
  std::uint64_t cap() const { return max_records_; }
  // Single-threaded applications reserve slots without atomic instructions.
  void set_threaded(bool threaded) { threaded_ = threaded; }
  // Reserves the next slot (1-based seq = index + 1); grows the file if needed.
  // Returns nullptr if the file cannot grow (disk full, reservation used up).
  trace::Event* reserve(std::uint64_t& seq) {  // inline: 1-2 per MPI call
    if (base_ == nullptr) return nullptr;
    std::uint64_t index = threaded_ ? __atomic_fetch_add(&next_, 1, __ATOMIC_RELAXED) : next_++;
    if (index >= __atomic_load_n(&capacity_, __ATOMIC_ACQUIRE) ||
        index == __atomic_load_n(&prefault_mark_, __ATOMIC_RELAXED)) [[unlikely]]
      return reserve_slow(index, seq);
    seq = index + 1;
    trace::Event* ev = reinterpret_cast<trace::Event*>(base_ + sizeof(trace::FileHeader)) + index;
    // The slots a few calls ahead, for writing: their cache lines are then
    // owned by the time the records are stored (a prefetch never faults).
    __builtin_prefetch(reinterpret_cast<const char*>(ev + kPrefetchAhead), 1, 3);
    __builtin_prefetch(reinterpret_cast<const char*>(ev + kPrefetchAhead) + 64, 1, 3);
    return ev;
  }
  std::uint64_t used() const { return __atomic_load_n(&next_, __ATOMIC_RELAXED); }
  bool capped() const { return __atomic_load_n(&capped_, __ATOMIC_RELAXED) != 0; }
  void truncate_to_used();
  // Format 3: encodes the used records into a packed events file
  // (scalefuzz/trace/packed.hpp) at path.tmp and renames it over `path` (this
  // log's file). At finalize, after stop_prefault(), with no writer left.
  // Returns false on failure; the raw file is then left in place.
  bool pack_into(const char* path);

 private:
  static constexpr std::uint64_t kPrefetchAhead = 4;  // records
  trace::Event* reserve_slow(std::uint64_t index, std::uint64_t& seq);
  bool grow_to(std::uint64_t records);
  bool grow_locked(std::uint64_t records);
  static void* prefault_main(void* self);

  unsigned char* base_ = nullptr;
  std::uint64_t next_ = 0;          // records reserved so far
  std::uint64_t capacity_ = 0;      // records backed by the mapped file
  std::size_t mapped_bytes_ = 0;
  int fd_ = -1;
  int grow_lock_ = 0;
  bool threaded_ = true;
  std::uint64_t max_records_ = ~std::uint64_t{0};
  int capped_ = 0;
  char cap_note_path_[4096] = {};
  char cap_note_[256] = {};
  // Prefault helper: woken when the writers reach prefault_mark_.
  std::uint64_t prefault_mark_ = ~std::uint64_t{0};
  std::uint64_t ahead_records_ = 0;
  sem_t prefault_wake_{};
  pthread_t prefault_thread_{};
  bool prefault_running_ = false;
  bool prefault_stop_ = false;
};

}  // namespace scalefuzz::inject
