// Internal helpers for reading and writing whole trace files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace scalefuzz::trace::detail {

// Whole file contents; throws TraceError naming the path on failure.
std::vector<unsigned char> read_file_bytes(const std::filesystem::path& file);

// The first `max_bytes` bytes of `file` (fewer if it is shorter); `size` gets
// the whole file's size. Throws TraceError naming the path on failure.
std::vector<unsigned char> read_file_prefix(const std::filesystem::path& file, std::size_t max_bytes,
                                            std::uintmax_t& size);

// Fixed-size records of `file` after `offset`, read in blocks (memory bounded
// by the caller's block, not the file).
class RecordStream {
 public:
  RecordStream(const std::filesystem::path& file, std::size_t offset, std::size_t record_size);
  ~RecordStream();
  RecordStream(const RecordStream&) = delete;
  RecordStream& operator=(const RecordStream&) = delete;
  // Reads up to `max` whole records into `out`; returns how many (0 at the end).
  std::size_t read(void* out, std::size_t max);
  // After the end: bytes of a last partial record, and whether any is nonzero.
  std::size_t tail_bytes() const { return tail_; }
  bool partial_tail_nonzero() const { return tail_nonzero_; }

 private:
  std::filesystem::path file_;
  int fd_ = -1;
  std::size_t record_size_;
  std::size_t tail_ = 0;
  bool tail_nonzero_ = false;
};

// Replaces `file` with new contents written in pieces: they go to
// `file`.tmp, renamed over `file` by commit(), so a reader (or a kill at any
// moment) sees the whole old file or the whole new one. Without commit() the
// temp file is removed. Throws TraceError naming the path on failure.
class ReplacementFile {
 public:
  explicit ReplacementFile(const std::filesystem::path& file);
  ~ReplacementFile();
  ReplacementFile(const ReplacementFile&) = delete;
  ReplacementFile& operator=(const ReplacementFile&) = delete;
  void write(const void* data, std::size_t size);
  void commit();

 private:
  std::filesystem::path file_, tmp_;
  int fd_ = -1;
};

// Replaces `file` with `bytes` (ReplacementFile).
void write_file_bytes(const std::filesystem::path& file, const void* data, std::size_t size);

std::filesystem::path rank_file(const std::filesystem::path& run_dir, int rank, const char* ext);

}  // namespace scalefuzz::trace::detail
