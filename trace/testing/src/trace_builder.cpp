#include "scalefuzz/trace/testing/trace_builder.hpp"

#include "scalefuzz/trace/ops.hpp"

namespace scalefuzz::trace::testing {

TypeEntry predefined_type(std::uint32_t key, const char* name, int size) {
  TypeEntry t;
  t.key = key;
  t.size = t.extent = size;
  t.predefined = true;
  t.name = name;
  t.signature_known = true;
  t.runs = {{key, 1}};
  return t;
}

TraceBuilder::TraceBuilder(int ranks, const std::vector<TypeEntry>& types) {
  run.ranks.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    auto& rt = run.ranks[static_cast<std::size_t>(r)];
    rt.rank = r;
    rt.world_size = ranks;
    rt.types = types;
    add(r, ops::Init, OpClass::Init);
  }
}

Event& TraceBuilder::add(int r, std::uint16_t op, OpClass c) {
  auto& rt = run.ranks[static_cast<std::size_t>(r)];
  Event e{};
  e.seq = rt.events.size() + 1;
  e.t_enter_ns = e.seq * 10;
  e.t_exit_ns = e.seq * 10 + 5;
  e.op = op;
  e.op_class = static_cast<std::uint8_t>(c);
  e.peer = e.root = e.status_source = kNoPeer;
  e.tag = e.status_tag = kNoTag;
  e.callsite = static_cast<std::uint32_t>(rt.events.size());
  rt.events.push_back(e);
  return rt.events.back();
}

}  // namespace scalefuzz::trace::testing
