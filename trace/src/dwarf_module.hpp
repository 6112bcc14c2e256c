// In-process symbolization of one ELF module with elfutils' libdw: what
// `addr2line -C -f -i -e MODULE` prints first for an address (the innermost,
// possibly inlined, function and the line-table location), without starting
// a process per module.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::trace::detail {

class DwarfModule {
 public:
  // Opens `path` (offline: nothing is mapped or run). Throws TraceError when
  // it is not a readable ELF file.
  explicit DwarfModule(const std::string& path);
  ~DwarfModule();
  DwarfModule(const DwarfModule&) = delete;
  DwarfModule& operator=(const DwarfModule&) = delete;

  // The GNU build id in hex, "" when the module has none.
  const std::string& build_id() const { return build_id_; }
  // Function, file and line of a module-relative (link-time) address; fields
  // stay empty / 0 when unknown.
  Frame lookup(std::uint64_t address) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
  std::string build_id_;
};

}  // namespace scalefuzz::trace::detail
