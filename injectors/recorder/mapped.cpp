#include "mapped.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <csignal>
#include <memory>
#include <cstdio>

#include <cerrno>
#include <cstring>
#include <string>

#include "scalefuzz/trace/packed.hpp"

namespace scalefuzz::inject {

namespace {
// Buffered write(2) into a new file; remembers the first failure.
class FileOut {
 public:
  explicit FileOut(const char* path) : fd_(::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) {}
  ~FileOut() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool put(const void* data, std::size_t n) {
    if (fd_ < 0) return false;
    if (used_ + n > sizeof buf_ && !drain()) return false;
    if (n > sizeof buf_) return write_all(data, n);
    std::memcpy(buf_ + used_, data, n);
    used_ += n;
    return true;
  }
  // Flushes and closes; true if every byte reached the file.
  bool close() {
    bool ok = fd_ >= 0 && drain();
    if (fd_ >= 0 && ::close(fd_) != 0) ok = false;
    fd_ = -1;
    return ok;
  }

 private:
  bool drain() {
    bool ok = write_all(buf_, used_);
    used_ = 0;
    return ok;
  }
  bool write_all(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    while (n > 0) {
      ssize_t w = ::write(fd_, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return false;
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    return true;
  }
  int fd_;
  std::size_t used_ = 0;
  unsigned char buf_[1 << 16];
};

// Writes path.tmp with `fill(out)` and renames it over `path`.
template <class Fill>
bool replace_file(const char* path, Fill&& fill) {
  std::string tmp = std::string(path) + ".tmp";
  bool ok;
  {
    auto out = std::make_unique<FileOut>(tmp.c_str());
    ok = fill(*out) && out->close();
  }
  if (ok) ok = ::rename(tmp.c_str(), path) == 0;
  if (!ok) ::unlink(tmp.c_str());
  return ok;
}

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;        // file grows 1 MiB at a time

// Writes `bytes` zero bytes at `offset` (extending the file).
bool write_zeros(int fd, off_t offset, std::size_t bytes) {
  static const unsigned char zeros[64 << 10] = {};  // .bss: reading it maps the shared zero page
  iovec parts[16];
  for (iovec& v : parts) v = iovec{const_cast<unsigned char*>(zeros), sizeof zeros};
  while (bytes > 0) {
    int n = 0;
    std::size_t total = 0;
    for (; n < 16 && total < bytes; ++n) {
      parts[n].iov_len = bytes - total < sizeof zeros ? bytes - total : sizeof zeros;
      total += parts[n].iov_len;
    }
    ssize_t w = ::pwritev(fd, parts, n, offset);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    offset += w;
    bytes -= static_cast<std::size_t>(w);
    for (iovec& v : parts) v.iov_len = sizeof zeros;
  }
  return true;
}
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

bool FixedMapping::rewrite_kept(const char* path, bool (*keep)(const void* record)) {
  if (base_ == nullptr) return false;
  return replace_file(path, [&](FileOut& out) {
    if (!out.put(base_, kHeader)) return false;
    const unsigned char* r = base_ + kHeader;
    for (std::size_t i = 0; i < capacity_; ++i, r += record_size_)
      if (keep(r) && !out.put(r, record_size_)) return false;
    return true;
  });
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
  if (records > max_records_) return false;
  std::size_t need = kHeader + records * sizeof(trace::Event);
  while (mapped_bytes_ < need) {
    if (mapped_bytes_ + kChunkBytes > kReserveBytes) return false;
    // The chunk is written as zeros rather than extended sparse (ftruncate)
    // or preallocated (fallocate): the kernel then creates its page-cache
    // pages in bulk, ~0.9 µs of CPU per 4 KiB page on this VM (ext4, Linux
    // 6.x, 2026-11-24) against ~3.9 µs when each page is created by a write
    // fault (MADV_POPULATE_WRITE) on a fallocated range; the 1-rank p2p
    // microbench's system time fell from 160-210 to 30-65 ns per call.
    if (!write_zeros(fd_, static_cast<off_t>(mapped_bytes_), kChunkBytes)) return false;
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
  std::uint64_t records_mapped = (mapped_bytes_ - kHeader) / sizeof(trace::Event);
  __atomic_store_n(&capacity_, records_mapped < max_records_ ? records_mapped : max_records_, __ATOMIC_RELEASE);
  return true;
}

void EventLog::set_cap(std::uint64_t max_records, const char* note_path, const char* note) {
  max_records_ = max_records;
  std::snprintf(cap_note_path_, sizeof cap_note_path_, "%s", note_path);
  std::snprintf(cap_note_, sizeof cap_note_, "%s", note);
  if (capacity_ > max_records_) __atomic_store_n(&capacity_, max_records_, __ATOMIC_RELEASE);
}

bool EventLog::grow_locked(std::uint64_t records) {
  while (__atomic_exchange_n(&grow_lock_, 1, __ATOMIC_ACQUIRE) != 0) sched_yield();
  bool ok = records <= capacity_ || grow_to(records);
  if (ok && prefault_running_) {
    // Wake the helper again when the writers are half the lead short of the
    // end, so it stays ahead of them.
    // (Before the first wake-up: halfway into the first chunk, so a rank
    // that records little never pays for populating the lead.)
    const std::uint64_t slack = ahead_records_ / 2;
    __atomic_store_n(&prefault_mark_, capacity_ > slack ? capacity_ - slack : capacity_ / 2, __ATOMIC_RELEASE);
  }
  __atomic_store_n(&grow_lock_, 0, __ATOMIC_RELEASE);
  return ok;
}

void* EventLog::prefault_main(void* self) {
  auto* log = static_cast<EventLog*>(self);
  for (;;) {
    while (sem_wait(&log->prefault_wake_) != 0) {
    }
    for (;;) {
      std::uint64_t want = log->used() + log->ahead_records_;
      if (want > log->max_records_) want = log->max_records_;
      // One chunk per lock hold: a writer that reaches the end waits for
      // one chunk at most, not for the whole lead.
      while (__atomic_load_n(&log->capacity_, __ATOMIC_ACQUIRE) < want) {
        if (__atomic_load_n(&log->prefault_stop_, __ATOMIC_ACQUIRE)) return nullptr;
        // A failure (disk full) leaves growth to the writers, which report it.
        if (!log->grow_locked(__atomic_load_n(&log->capacity_, __ATOMIC_ACQUIRE) + 1)) return nullptr;
      }
      if (__atomic_load_n(&log->prefault_stop_, __ATOMIC_ACQUIRE)) return nullptr;
      if (__atomic_load_n(&log->capacity_, __ATOMIC_ACQUIRE) >= log->max_records_) break;  // at the size cap
      // Writers post only at the exact mark: if they passed it while it
      // moved, nobody will; keep going.
      if (log->used() < __atomic_load_n(&log->prefault_mark_, __ATOMIC_ACQUIRE)) break;
    }
  }
}

bool EventLog::start_prefault(unsigned ahead_chunks) {
  if (base_ == nullptr || prefault_running_ || ahead_chunks == 0) return false;
  if (sem_init(&prefault_wake_, 0, 0) != 0) return false;
  ahead_records_ = ahead_chunks * (kChunkBytes / sizeof(trace::Event));
  // The helper must not receive the application's signals (e.g. SIGALRM).
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  prefault_running_ = pthread_create(&prefault_thread_, nullptr, &EventLog::prefault_main, this) == 0;
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (!prefault_running_) return false;
  grow_locked(1);  // sets the first wake-up mark
  return true;
}

void EventLog::stop_prefault() {
  if (!prefault_running_) return;
  __atomic_store_n(&prefault_mark_, ~std::uint64_t{0}, __ATOMIC_RELEASE);
  __atomic_store_n(&prefault_stop_, true, __ATOMIC_RELEASE);
  sem_post(&prefault_wake_);
  pthread_join(prefault_thread_, nullptr);
  prefault_running_ = false;
}

// Growth, or waking the prefault helper (reserve() checked both).
trace::Event* EventLog::reserve_slow(std::uint64_t index, std::uint64_t& seq) {
  if (index >= max_records_) {
    if (__atomic_exchange_n(&capped_, 1, __ATOMIC_ACQ_REL) == 0 && cap_note_path_[0] != '\0') {
      int fd = ::open(cap_note_path_, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd >= 0) {
        (void)!::write(fd, cap_note_, std::strlen(cap_note_));
        ::close(fd);
      }
    }
    return nullptr;
  }
  if (index >= __atomic_load_n(&capacity_, __ATOMIC_ACQUIRE)) {
    if (!grow_locked(index + 1)) return nullptr;
  } else if (index == __atomic_load_n(&prefault_mark_, __ATOMIC_RELAXED)) {
    sem_post(&prefault_wake_);  // exactly one writer reserves the mark's index
  }
  seq = index + 1;
  return reinterpret_cast<trace::Event*>(base_ + kHeader) + index;
}

bool EventLog::pack_into(const char* path) {
  if (base_ == nullptr) return false;
  std::uint64_t n = used() < max_records_ ? used() : max_records_;
  trace::FileHeader h;
  std::memcpy(&h, base_, sizeof h);
  h.kind = static_cast<std::uint32_t>(trace::FileKind::PackedEvents);
  return replace_file(path, [&](FileOut& out) {
    if (!out.put(&h, sizeof h)) return false;
    auto sink = [&](const void* p, std::size_t len) { return out.put(p, len); };
    trace::packed::Encoder enc;
    const auto* ev = reinterpret_cast<const trace::Event*>(base_ + kHeader);
    // Up to the first slot out of sequence, as a reader of the raw file would.
    for (std::uint64_t i = 0; i < n && ev[i].seq == i + 1; ++i)
      if (!enc.add(ev[i], sink)) return false;
    return enc.finish(sink);
  });
}

void EventLog::truncate_to_used() {
  std::uint64_t n = used() < max_records_ ? used() : max_records_;
  if (fd_ >= 0) (void)::ftruncate(fd_, static_cast<off_t>(kHeader + n * sizeof(trace::Event)));
}

}  // namespace scalefuzz::inject
