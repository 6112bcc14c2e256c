// Builders for hand-made traces and a scratch run directory.
#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "scalefuzz/testing/errors.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::trace::testing {

class TempRunDir {
 public:
  TempRunDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("sftrace-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempRunDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path file(int rank, const char* ext) const {
    return path_ / "ranks" / (std::to_string(rank) + "." + ext);
  }

 private:
  std::filesystem::path path_;
};

// Appends records to a rank with dense seq numbers and monotonic timestamps.
class RankBuilder {
 public:
  RankBuilder(int rank, int world) {
    rt.rank = rank;
    rt.world_size = world;
    rt.pid = 1000 + rank;
    rt.start_ns = 1'700'000'000'000'000'000ull;
  }

  Event& add(OpClass cls, std::int32_t peer = kNoPeer, std::int32_t tag = kNoTag, std::uint64_t request = 0,
             std::uint8_t flags = 0, std::int64_t bytes = 8, std::uint32_t comm = kCommWorld) {
    Event e{};
    e.seq = rt.events.size() + 1;
    e.t_enter_ns = 1000 * e.seq;
    e.t_exit_ns = e.t_enter_ns + 500;
    e.op = 0;  // ops::kUnknown: listings fall back to the class name
    e.op_class = static_cast<std::uint8_t>(cls);
    e.flags = flags;
    e.peer = peer;
    e.tag = tag;
    e.comm = comm;
    e.root = kNoPeer;
    e.count = bytes / 4;
    e.bytes = bytes;
    e.request = request;
    e.status_source = kNoPeer;
    e.status_tag = kNoTag;
    rt.events.push_back(e);
    return rt.events.back();
  }

  std::size_t last() const { return rt.events.size() - 1; }

  std::size_t send(int dst, int tag, std::int64_t bytes = 8) {
    add(OpClass::Send, dst, tag, 0, 0, bytes);
    return last();
  }
  std::size_t recv(int src, int tag, int status_src, int status_tag) {
    Event& e = add(OpClass::Recv, src, tag);
    e.status_source = status_src;
    e.status_tag = status_tag;
    e.status_bytes = 8;
    return last();
  }
  std::size_t isend(int dst, int tag, std::uint64_t req) {
    add(OpClass::Isend, dst, tag, req);
    return last();
  }
  std::size_t irecv(int src, int tag, std::uint64_t req) {
    add(OpClass::Irecv, src, tag, req);
    return last();
  }
  // A RequestDone child (status for receives; kNoPeer for sends).
  std::size_t done(std::uint64_t req, int status_src = kNoPeer, int status_tag = kNoTag, std::uint8_t flags = 0) {
    Event& e = add(OpClass::RequestDone, kNoPeer, kNoTag, req, static_cast<std::uint8_t>(kFlagChild | flags), 0);
    e.status_source = status_src;
    e.status_tag = status_tag;
    return last();
  }
  std::size_t wait(std::uint64_t req, int status_src = kNoPeer, int status_tag = kNoTag) {
    add(OpClass::Completion, kNoPeer, kNoTag, req, 0, 0);
    return done(req, status_src, status_tag);
  }

  RankTrace rt;
};

// Overwrites the format version in `file`'s header.
inline void set_header_version(const std::filesystem::path& file, std::uint32_t version) {
  std::fstream f(file, std::ios::binary | std::ios::in | std::ios::out);
  f.seekp(offsetof(FileHeader, version));
  f.write(reinterpret_cast<const char*>(&version), sizeof version);
}

// What read_rank() throws for `rank` of `run_dir` ("" if it reads fine).
inline std::string read_rank_error(const std::filesystem::path& run_dir, int rank) {
  return scalefuzz::testing::error_of<TraceError>([&] { read_rank(run_dir, rank); });
}

// Whether one of the reader's warnings for `rt` contains `needle`.
inline bool has_warning(const RankTrace& rt, const std::string& needle) {
  for (const auto& w : rt.warnings)
    if (w.find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace scalefuzz::trace::testing
