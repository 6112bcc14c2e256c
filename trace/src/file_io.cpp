#include "file_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::trace::detail {

namespace {
std::string errno_text(const std::filesystem::path& file, const char* what) {
  return file.string() + ": " + what + ": " + std::strerror(errno);
}

// Moves `size` bytes between `fd` and `p` with `io` (::read or ::write),
// retrying interrupted calls; stops early when `io` returns 0 (end of file).
// Returns the bytes moved.
template <typename Io, typename Byte>
std::size_t transfer(Io io, int fd, Byte* p, std::size_t size, const std::filesystem::path& file, const char* failed) {
  std::size_t done = 0;
  while (done < size) {
    ssize_t n = io(fd, p + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw TraceError(errno_text(file, failed));
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};
}  // namespace

std::vector<unsigned char> read_file_prefix(const std::filesystem::path& file, std::size_t max_bytes,
                                            std::uintmax_t& size) {
  Fd f{::open(file.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) throw TraceError(errno_text(file, "cannot open"));
  struct stat st{};
  if (::fstat(f.fd, &st) != 0) throw TraceError(errno_text(file, "cannot stat"));
  size = static_cast<std::uintmax_t>(st.st_size);
  std::vector<unsigned char> bytes(std::min<std::size_t>(max_bytes, static_cast<std::size_t>(st.st_size)));
  bytes.resize(transfer(::read, f.fd, bytes.data(), bytes.size(), file, "read failed"));
  return bytes;
}

std::vector<unsigned char> read_file_bytes(const std::filesystem::path& file) {
  std::uintmax_t size = 0;
  return read_file_prefix(file, SIZE_MAX, size);  // a file that shrinks while read keeps what was read
}

RecordStream::RecordStream(const std::filesystem::path& file, std::size_t offset, std::size_t record_size)
    : file_(file), record_size_(record_size) {
  fd_ = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw TraceError(errno_text(file, "cannot open"));
  if (::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0) {
    ::close(fd_);
    throw TraceError(errno_text(file, "cannot seek"));
  }
}

RecordStream::~RecordStream() {
  if (fd_ >= 0) ::close(fd_);
}

std::size_t RecordStream::read(void* out, std::size_t max) {
  auto* p = static_cast<unsigned char*>(out);
  const std::size_t want = max * record_size_;
  // Fewer at the end of the file (or when it shrank while reading: keep what we got).
  const std::size_t done = transfer(::read, fd_, p, want, file_, "read failed");
  std::size_t whole = done / record_size_;
  if (done < want) {
    tail_ = done - whole * record_size_;
    for (std::size_t i = whole * record_size_; i < done; ++i) tail_nonzero_ = tail_nonzero_ || p[i] != 0;
  }
  return whole;
}

ReplacementFile::ReplacementFile(const std::filesystem::path& file) : file_(file), tmp_(file) {
  tmp_ += ".tmp";
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw TraceError(errno_text(tmp_, "cannot create"));
}

ReplacementFile::~ReplacementFile() {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(tmp_.c_str());
}

void ReplacementFile::write(const void* data, std::size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
  if (transfer(::write, fd_, p, size, tmp_, "write failed") < size)
    throw TraceError(tmp_.string() + ": write failed: nothing written");
}

void ReplacementFile::commit() {
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    ::unlink(tmp_.c_str());
    throw TraceError(errno_text(tmp_, "write failed"));
  }
  std::error_code ec;
  std::filesystem::rename(tmp_, file_, ec);
  if (ec) {
    ::unlink(tmp_.c_str());
    throw TraceError(file_.string() + ": cannot rename into place: " + ec.message());
  }
}

void write_file_bytes(const std::filesystem::path& file, const void* data, std::size_t size) {
  ReplacementFile out(file);
  out.write(data, size);
  out.commit();
}

std::filesystem::path rank_file(const std::filesystem::path& run_dir, int rank, const char* ext) {
  return run_dir / "ranks" / (std::to_string(rank) + "." + ext);
}

}  // namespace scalefuzz::trace::detail
