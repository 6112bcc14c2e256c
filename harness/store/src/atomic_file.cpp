#include "scalefuzz/harness/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <system_error>

namespace scalefuzz::harness {

namespace {
[[noreturn]] void throw_errno(const std::string& what, const std::filesystem::path& p) {
  throw std::system_error(errno, std::generic_category(), what + " " + p.string());
}
}  // namespace

std::filesystem::path unique_sibling(const std::filesystem::path& file, const std::string& tag) {
  // pid + counter: concurrent writers never share a temporary file.
  static std::atomic<unsigned> counter{0};
  auto name = file;
  name += "." + tag + "." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  return name;
}

void write_file_contents(const std::filesystem::path& file, std::string_view content) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw_errno("cannot create", file);
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int saved = errno;
      ::close(fd);
      ::unlink(file.c_str());
      errno = saved;
      throw_errno("cannot write", file);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    const int saved = errno;
    ::unlink(file.c_str());
    errno = saved;
    throw_errno("cannot close", file);
  }
}

void write_file_atomic(const std::filesystem::path& file, std::string_view content) {
  const auto tmp = unique_sibling(file, "tmp");
  write_file_contents(tmp, content);
  if (::rename(tmp.c_str(), file.c_str()) != 0) {
    const int saved = errno;
    ::unlink(tmp.c_str());
    errno = saved;
    throw_errno("cannot rename into place", file);
  }
}

std::string utc_timestamp_now() {
  const auto now = std::chrono::system_clock::now();
  const auto secs = std::chrono::system_clock::to_time_t(now);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  ::gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

}  // namespace scalefuzz::harness
