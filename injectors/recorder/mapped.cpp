#include "mapped.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace scalefuzz::inject {

namespace {
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;        // file grows 1 MiB at a time
constexpr std::size_t kReserveBytes = std::size_t{16} << 30;     // 16 GiB of address space: ~178 M events
constexpr std::size_t kHeader = sizeof(trace::FileHeader);
}  // namespace

bool FixedMapping::open(const char* path, const trace::FileHeader& header, std::size_t record_size,
                        std::size_t capacity) {
  fd_ = ::open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) return false;
  std::size_t bytes = kHeader + record_size * capacity;
  if (::ftruncate(fd_, static_cast<off_t>(bytes)) != 0) return false;
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (p == MAP_FAILED) return false;
  base_ = static_cast<unsigned char*>(p);
  record_size_ = record_size;
  capacity_ = capacity;
  std::memcpy(base_, &header, sizeof header);
  return true;
}

void FixedMapping::truncate_to(std::size_t used) {
  if (fd_ >= 0) (void)::ftruncate(fd_, static_cast<off_t>(kHeader + record_size_ * used));
}

bool EventLog::open(const char* path, const trace::FileHeader& header) {
  fd_ = ::open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) return false;
  void* p = ::mmap(nullptr, kReserveBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return false;
  base_ = static_cast<unsigned char*>(p);
  if (!grow_to(1)) return false;
  std::memcpy(base_, &header, sizeof header);
  return true;
}

bool EventLog::grow_to(std::uint64_t records) {
  std::size_t need = kHeader + records * sizeof(trace::Event);
  while (mapped_bytes_ < need) {
    if (mapped_bytes_ + kChunkBytes > kReserveBytes) return false;
    if (::ftruncate(fd_, static_cast<off_t>(mapped_bytes_ + kChunkBytes)) != 0) return false;
    // Allocate the blocks now (no per-page delayed allocation on the hot path).
    (void)::fallocate(fd_, 0, static_cast<off_t>(mapped_bytes_), static_cast<off_t>(kChunkBytes));
    void* p = ::mmap(base_ + mapped_bytes_, kChunkBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd_,
                     static_cast<off_t>(mapped_bytes_));
    if (p == MAP_FAILED) return false;
#ifdef MADV_POPULATE_WRITE
    // Take the write faults of the whole chunk in one call instead of one
    // fault per page while recording (ignored by kernels before 5.14).
    (void)::madvise(p, kChunkBytes, MADV_POPULATE_WRITE);
#endif
    mapped_bytes_ += kChunkBytes;
  }
  __atomic_store_n(&capacity_, (mapped_bytes_ - kHeader) / sizeof(trace::Event), __ATOMIC_RELEASE);
  return true;
}

trace::Event* EventLog::reserve(std::uint64_t& seq) {
  if (base_ == nullptr) return nullptr;
  std::uint64_t index = threaded_ ? __atomic_fetch_add(&next_, 1, __ATOMIC_RELAXED) : next_++;
  if (index >= __atomic_load_n(&capacity_, __ATOMIC_ACQUIRE)) {
    while (__atomic_exchange_n(&grow_lock_, 1, __ATOMIC_ACQUIRE) != 0) sched_yield();
    bool ok = index < capacity_ || grow_to(index + 1);
    __atomic_store_n(&grow_lock_, 0, __ATOMIC_RELEASE);
    if (!ok) return nullptr;
  }
  seq = index + 1;
  return reinterpret_cast<trace::Event*>(base_ + kHeader) + index;
}

void EventLog::truncate_to_used() {
  if (fd_ >= 0) (void)::ftruncate(fd_, static_cast<off_t>(kHeader + used() * sizeof(trace::Event)));
}

}  // namespace scalefuzz::inject
