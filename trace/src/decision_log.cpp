// Decision logs: typed reading and writing (decision_log.hpp).
#include "scalefuzz/trace/decision_log.hpp"


#include <cstring>
#include <stdexcept>
#include <system_error>

#include "file_io.hpp"
#include "scalefuzz/trace/header.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::trace {

namespace {
constexpr std::size_t kStreamOffset = sizeof(FileHeader) + sizeof(DecisionPreamble);

// Decodes the entry stream; false (with `why`) at a cut or unknown entry.
bool decode(const std::uint8_t* p, const std::uint8_t* end, DecisionLog& log, bool& finished, std::string& why) {
  DecisionCursor cur;
  finished = false;
  for (;;) {
    const std::uint8_t* start = p;
    RawDecision r;
    const DecodeStatus st = decode_entry(p, end, cur, r);
    if (st == DecodeStatus::Done) return true;
    if (st != DecodeStatus::Ok) {
      why = st == DecodeStatus::Cut ? "entry cut at the end of the stream" : "unknown entry code " + std::to_string(*start);
      return false;
    }
    Decision d{.kind = r.kind, .call = r.call, .ordinal = r.ordinal, .source = r.source, .tag = r.tag,
               .failures = r.failures, .index = r.index, .indices = {}};
    const std::uint8_t* q = r.indices;
    for (std::uint64_t i = 0; i < r.nindices; ++i) {
      std::uint64_t v = 0;
      get_varint(q, end, v);
      d.indices.push_back(static_cast<std::int32_t>(v));
    }
    log.decisions.push_back(std::move(d));
    log.stream_bytes += static_cast<std::uint64_t>(p - start);
    if (r.kind == DecisionKind::End || r.kind == DecisionKind::Free) {
      finished = true;
      return true;
    }
  }
}
}  // namespace

std::uint64_t DecisionLog::decision_count() const {
  std::uint64_t n = 0;
  for (const Decision& d : decisions) {
    switch (d.kind) {
      case DecisionKind::Match: ++n; break;
      case DecisionKind::Poll:
      case DecisionKind::Index:
      case DecisionKind::Some: n += 1 + d.failures; break;
      case DecisionKind::Fails: n += d.failures; break;
      default: break;
    }
  }
  return n;
}

std::filesystem::path decision_log_file(const std::filesystem::path& run_dir, int rank) {
  return run_dir / "ranks" / (std::to_string(rank) + ".decisions");
}
std::filesystem::path replay_log_file(const std::filesystem::path& replay_dir, int rank) {
  return replay_dir / (std::to_string(rank) + ".decisions");
}

DecisionLog read_decision_log(const std::filesystem::path& file) {
  std::vector<unsigned char> bytes = detail::read_file_bytes(file);
  DecisionLog log;
  if (bytes.size() < sizeof(FileHeader)) throw TraceError(file.string() + ": shorter than a file header");
  FileHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (const char* why = header_problem(h, FileKind::Decisions)) throw TraceError(file.string() + ": " + why);
  if (h.version < 4) throw TraceError(file.string() + ": a decision log needs format 4, the file says " + std::to_string(h.version));
  log.rank = h.rank;
  log.world_size = h.world_size;
  log.run_id.assign(h.run_id, strnlen(h.run_id, sizeof h.run_id));
  if (bytes.size() < kStreamOffset) {
    log.truncated = true;
    log.warnings.push_back("decisions: preamble cut");
    return log;
  }
  DecisionPreamble pre;
  std::memcpy(&pre, bytes.data() + sizeof(FileHeader), sizeof pre);
  log.flags = pre.flags;
  if (pre.build_id_len > sizeof pre.build_id) throw TraceError(file.string() + ": build id length out of range");
  log.build_id.assign(pre.build_id, pre.build_id + pre.build_id_len);
  bool finished = false;
  std::string why;
  const bool ok = decode(bytes.data() + kStreamOffset, bytes.data() + bytes.size(), log, finished, why);
  if (!ok) log.warnings.push_back("decisions: " + why + " (kept the entries before it)");
  log.truncated = !finished;
  if (log.truncated && ok) log.warnings.push_back("decisions: the log has no end entry (the rank never finalized)");
  return log;
}

std::vector<DecisionLog> read_decision_logs(const std::filesystem::path& run_dir) {
  std::vector<DecisionLog> logs;
  const std::filesystem::path first = decision_log_file(run_dir, 0);
  std::error_code ec;
  if (!std::filesystem::exists(first, ec)) return logs;
  DecisionLog l0 = read_decision_log(first);
  const int n = l0.world_size;
  logs.push_back(std::move(l0));
  for (int r = 1; r < n; ++r) {
    const std::filesystem::path f = decision_log_file(run_dir, r);
    if (!std::filesystem::exists(f, ec))
      throw TraceError(f.string() + ": missing (rank 0's log names " + std::to_string(n) + " ranks)");
    logs.push_back(read_decision_log(f));
  }
  return logs;
}

void write_decision_log(const std::filesystem::path& file, const DecisionLog& log) {
  FileHeader h = make_header(FileKind::Decisions, log.rank, log.world_size, 1, 0, 0, log.run_id.c_str());
  if (const char* why = header_problem(h, FileKind::Decisions)) throw TraceError(file.string() + ": " + why);
  DecisionPreamble pre{};
  if (log.build_id.size() > sizeof pre.build_id) throw TraceError(file.string() + ": build id longer than 32 bytes");
  pre.build_id_len = static_cast<std::uint32_t>(log.build_id.size());
  std::memcpy(pre.build_id, log.build_id.data(), log.build_id.size());
  pre.flags = log.flags | kDecisionsWrittenByTool;
  std::vector<std::uint8_t> out(kStreamOffset);
  std::memcpy(out.data(), &h, sizeof h);
  std::memcpy(out.data() + sizeof h, &pre, sizeof pre);
  DecisionCursor cur;
  for (const Decision& d : log.decisions) {
    if (d.call < cur.call) throw std::invalid_argument("write_decision_log: calls decrease at a " + std::string(decision_kind_name(d.kind)) + " entry");
    std::vector<std::uint8_t> buf(40 + 10 * d.indices.size());
    std::size_t n = 0;
    switch (d.kind) {
      case DecisionKind::Match:
        if (d.ordinal == 0) throw std::invalid_argument("write_decision_log: Match ordinal 0");
        n = encode_match(buf.data(), cur, d.call, d.ordinal, d.source, d.tag);
        break;
      case DecisionKind::Poll: n = encode_simple(buf.data(), cur, decision_code::kPoll, d.call, d.failures); break;
      case DecisionKind::Fails: n = encode_simple(buf.data(), cur, decision_code::kFails, d.call, d.failures); break;
      case DecisionKind::End: n = encode_simple(buf.data(), cur, decision_code::kEnd, d.call, 0); break;
      case DecisionKind::Free: n = encode_simple(buf.data(), cur, decision_code::kFree, d.call, 0); break;
      case DecisionKind::Index: n = encode_index(buf.data(), cur, d.call, d.failures, d.index); break;
      case DecisionKind::Some: {
        std::vector<int> idx(d.indices.begin(), d.indices.end());
        n = encode_some(buf.data(), cur, d.call, d.failures, idx.data(), static_cast<int>(idx.size()));
        break;
      }
    }
    out.insert(out.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
  }
  detail::write_file_bytes(file, out.data(), out.size());
}

DecisionLog force_match(const DecisionLog& log, std::size_t match_index, std::int32_t source, std::int32_t tag) {
  if (match_index >= log.decisions.size() || log.decisions[match_index].kind != DecisionKind::Match)
    throw std::invalid_argument("force_match: decision " + std::to_string(match_index) + " is not a Match");
  DecisionLog out = log;
  out.decisions.resize(match_index + 1);
  Decision& m = out.decisions.back();
  m.source = source;
  if (tag != kNoDecisionTag) m.tag = tag;
  Decision free_entry;
  free_entry.kind = DecisionKind::Free;
  free_entry.call = m.call;
  out.decisions.push_back(free_entry);
  out.truncated = false;
  out.warnings.clear();
  return out;
}

std::string build_id_hex(const std::vector<std::uint8_t>& id) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : id) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

std::string replay_mismatch(const std::vector<DecisionLog>& logs, int world_size, const std::string& build_id) {
  if (logs.empty()) return "no decision logs";
  if (static_cast<int>(logs.size()) != world_size || logs.front().world_size != world_size)
    return "the decision logs are of a run with " + std::to_string(logs.front().world_size) + " ranks, the command starts " +
           std::to_string(world_size);
  for (const DecisionLog& l : logs) {
    if (l.world_size != world_size)
      return "rank " + std::to_string(l.rank) + "'s decision log names " + std::to_string(l.world_size) + " ranks";
    if (!l.build_id.empty() && !build_id.empty() && build_id_hex(l.build_id) != build_id)
      return "rank " + std::to_string(l.rank) + "'s decision log was recorded with another binary (GNU build id " +
             build_id_hex(l.build_id) + ", the program to run has " + build_id + ")";
  }
  return {};
}

const char* decision_kind_name(DecisionKind k) {
  switch (k) {
    case DecisionKind::Match: return "match";
    case DecisionKind::Poll: return "poll";
    case DecisionKind::Index: return "index";
    case DecisionKind::Some: return "some";
    case DecisionKind::Fails: return "fails";
    case DecisionKind::End: return "end";
    case DecisionKind::Free: return "free";
  }
  return "?";
}

}  // namespace scalefuzz::trace
