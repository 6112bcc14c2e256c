#include "text.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <vector>

namespace scalefuzz::harness::text {

std::string file_tail(const std::filesystem::path& file, std::size_t max_lines) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  constexpr std::streamoff kMaxBytes = 64 * 1024;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff start = size > kMaxBytes ? size - kMaxBytes : 0;
  in.seekg(start);
  std::string data(static_cast<std::size_t>(size - start), '\0');
  in.read(data.data(), static_cast<std::streamsize>(data.size()));
  data.resize(static_cast<std::size_t>(in.gcount()));
  if (max_lines == 0) return {};
  // Walk back over max_lines line breaks (a trailing newline does not count).
  std::size_t end = data.size();
  if (end > 0 && data[end - 1] == '\n') --end;
  std::size_t pos = end, lines = 0;
  while (pos > 0) {
    if (data[pos - 1] == '\n' && ++lines == max_lines) break;
    --pos;
  }
  std::string tail = data.substr(pos);
  if (pos > 0 || start > 0) tail = "...\n" + tail;
  return tail;
}

std::string human_seconds(double seconds) {
  char buf[32];
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  if (seconds < 10) std::snprintf(buf, sizeof buf, "%.2fs", seconds);
  else if (seconds < 60) std::snprintf(buf, sizeof buf, "%.1fs", seconds);
  else if (seconds < 3600) {
    const long s = std::lround(seconds);
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  } else {
    const long m = std::lround(seconds / 60);
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", m / 60, m % 60);
  }
  return buf;
}

}  // namespace scalefuzz::harness::text
