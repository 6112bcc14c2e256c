// Scratch directories and whole-file I/O for tests of every room.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace scalefuzz::testing {

// A fresh directory PREFIX-PID-N below `parent` (the system's temporary
// directory by default), removed with its contents when the test ends.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "scalefuzz-test",
                   const std::filesystem::path& parent = std::filesystem::temp_directory_path()) {
    static std::atomic<unsigned> counter{0};
    path_ = parent / (prefix + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The whole file, "" when it cannot be read.
inline std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Writes `text` to `file`, creating its directory; throws when it cannot.
inline void write_file(const std::filesystem::path& file, const std::string& text) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

// The text between the line `begin` (with its newline) and `end` in the
// file: a table a test renders from its source of truth and compares;
// "<missing: ...>" naming what was not found.
inline std::string marked_section(const std::filesystem::path& file, const std::string& begin, const std::string& end) {
  const std::string text = read_file(file);
  const auto b = text.find(begin), e = text.find(end);
  if (text.empty()) return "<missing: " + file.string() + ">";
  if (b == std::string::npos || e == std::string::npos || e < b) return "<missing: markers in " + file.string() + ">";
  return text.substr(b + begin.size(), e - b - begin.size());
}

}  // namespace scalefuzz::testing
