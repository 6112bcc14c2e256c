#include "scalefuzz/trace/allocs.hpp"

#include <algorithm>
#include <cstring>

#include "file_io.hpp"
#include "scalefuzz/trace/header.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::trace {

std::vector<AllocRecord> read_allocs(const std::filesystem::path& run_dir, int rank,
                                     std::vector<std::string>* warnings, std::size_t max_records) {
  std::filesystem::path file = detail::rank_file(run_dir, rank, "allocs");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return {};
  std::vector<unsigned char> bytes = detail::read_file_bytes(file);
  std::vector<AllocRecord> out;
  if (bytes.size() < sizeof(FileHeader)) return out;
  FileHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (header_unwritten(h)) return out;
  if (const char* problem = header_problem(h, FileKind::Allocs))
    throw TraceError(file.string() + ": " + problem);
  std::size_t n = (bytes.size() - sizeof(FileHeader)) / sizeof(AllocRecord);
  if (n > max_records) {
    if (warnings != nullptr)
      warnings->push_back("allocs: " + std::to_string(n) + " records, only the first " +
                          std::to_string(max_records) + " read");
    n = max_records;
  }
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    AllocRecord r;
    std::memcpy(&r, bytes.data() + sizeof(FileHeader) + i * sizeof(AllocRecord), sizeof r);
    if (r.t_ns == 0) break;  // stored last: the rest was never completed
    out.push_back(r);
  }
  return out;
}

HeapSweep::HeapSweep(std::vector<AllocRecord> log) : log_(std::move(log)) {
  // Threads append out of time order by a few ns; the sweep wants time order.
  std::stable_sort(log_.begin(), log_.end(), [](const AllocRecord& a, const AllocRecord& b) { return a.t_ns < b.t_ns; });
}

HeapSweep::Block HeapSweep::at(std::uint64_t addr, std::uint64_t t) {
  for (; next_ < log_.size() && log_[next_].t_ns <= t; ++next_) {
    const AllocRecord& r = log_[next_];
    if (r.kind == static_cast<std::uint32_t>(AllocKind::Alloc))
      live_[r.addr] = Block{r.addr, r.size, r.site, next_ + 1};
    else
      live_.erase(r.addr);
  }
  auto it = live_.upper_bound(addr);
  if (it == live_.begin()) return {};
  --it;
  if (addr >= it->second.addr && addr < it->second.addr + it->second.size) return it->second;
  return {};
}

}  // namespace scalefuzz::trace
