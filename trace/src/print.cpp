// Human listing of a run (`scalefuzz trace RUN_DIR`).
#include "scalefuzz/trace/print.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "scalefuzz/trace/symbolize.hpp"

namespace scalefuzz::trace {

namespace {

const char* class_name(std::uint8_t c) {
  static const char* const kNames[] = {"Other",      "Init",     "Finalize",  "Abort",       "Send",
                                       "Recv",       "Sendrecv", "Isend",     "Irecv",       "SendInit",
                                       "RecvInit",   "Start",    "Completion", "RequestDone", "Probe",
                                       "Collective", "Icollective", "CommMgmt", "RequestFree",
                                       "HandleNew",  "HandleFree", "TypeCommit", "Pack",        "Unpack",
                                       "WinMgmt",    "Rma",      "RmaSync"};
  return c < sizeof kNames / sizeof kNames[0] ? kNames[c] : "?";
}

// op_name() from the generated table; the class when the table does not know the id.
std::string op_label(std::uint16_t op, std::uint8_t op_class) {
  const char* n = op_name(op);
  if (n == nullptr || *n == '\0' || std::strchr(n, '?') != nullptr) return std::string("<") + class_name(op_class) + ">";
  return n;
}

std::string peer_text(std::int32_t p) {
  if (p == kAnySource) return "ANY";
  if (p == kProcNull) return "NULL";
  if (p == kNoPeer) return "-";
  return std::to_string(p);
}

std::string tag_text(std::int32_t t) {
  if (t == kAnyTag) return "ANY";
  if (t == kNoTag) return "-";
  return std::to_string(t);
}

std::string duration_text(std::uint64_t ns) {
  char buf[32];
  if (ns < 1000)
    std::snprintf(buf, sizeof buf, "%" PRIu64 "ns", ns);
  else if (ns < 1000000)
    std::snprintf(buf, sizeof buf, "%.1fus", static_cast<double>(ns) / 1e3);
  else if (ns < 1000000000)
    std::snprintf(buf, sizeof buf, "%.1fms", static_cast<double>(ns) / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.2fs", static_cast<double>(ns) / 1e9);
  return buf;
}

bool has_status(OpClass c) { return c == OpClass::Recv || c == OpClass::RequestDone; }

void print_event(const Event& e, std::ostream& out) {
  auto cls = static_cast<OpClass>(e.op_class);
  std::string name = (e.flags & kFlagChild) ? "  " + op_label(e.op, e.op_class) : op_label(e.op, e.op_class);
  char line[256];
  std::snprintf(line, sizeof line, "    %6" PRIu64 "  %-22s %5s %5s %5u %9" PRId64 "  %9s", e.seq, name.c_str(),
                peer_text(e.peer).c_str(), tag_text(e.tag).c_str(), e.comm, e.bytes,
                e.t_exit_ns == 0 ? "-" : duration_text(e.t_exit_ns - e.t_enter_ns).c_str());
  out << line;
  if (e.root != kNoPeer && (cls == OpClass::Collective || cls == OpClass::Icollective)) out << "  root=" << e.root;
  if (e.request != 0) out << "  req=" << e.request;
  if (e.t_exit_ns != 0 && has_status(cls) && e.status_source != kNoPeer && (e.flags & kFlagTestFailed) == 0)
    out << "  status(src=" << peer_text(e.status_source) << " tag=" << tag_text(e.status_tag)
        << " bytes=" << e.status_bytes << ")";
  if (e.flags & kFlagTestFailed) out << "  not-complete";
  if (e.repeats != 0) out << "  x" << (static_cast<std::uint64_t>(e.repeats) + 1) << " (folded polls)";
  if (e.flags & kFlagCancelled) out << "  cancelled";
  if (e.flags & kFlagSynchronous) out << "  sync";
  if (e.flags & kFlagBuffered) out << "  buffered";
  if (e.flags & kFlagPersistent) out << "  persistent";
  if (e.flags & kFlagDelayed) out << "  delayed";
  if (e.error != 0) out << "  error=" << e.error;
  if (e.t_exit_ns == 0) out << "  IN PROGRESS";
  out << '\n';
}

void print_sites(const RankTrace& rt, std::ostream& out, bool symbolized) {
  out << "  call sites (" << rt.sites.size() << "):\n";
  for (const auto& s : rt.sites) {
    char head[128];
    std::snprintf(head, sizeof head, "    #%u %s hash=%016" PRIx64, s.id, op_label(s.op, 0).c_str(), s.stable_hash);
    out << head;
    if (s.id < rt.features.size()) {
      const auto& f = rt.features[s.id];
      out << "  calls=" << f.calls << " sent=" << f.bytes_sent << " received=" << f.bytes_received;
    }
    out << '\n';
    if (symbolized && s.symbolized.size() == s.frames.size()) {
      for (const auto& f : s.symbolized) out << "        " << format_frame(f) << '\n';
    } else {
      for (auto a : s.frames) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "0x%" PRIx64, a);
        out << "        " << buf << '\n';
      }
    }
  }
}

void print_live(const LiveState& l, std::ostream& out) {
  out << "  live: " << (l.finalized ? "finalized" : l.in_call ? "inside " : "last call ")
      << (l.finalized ? "" : op_label(l.op, l.op_class)) << " seq=" << l.current_seq << " peer=" << peer_text(l.peer)
      << " tag=" << tag_text(l.tag) << " comm=" << l.comm << " calls=" << l.calls << " sends=" << l.sends
      << " recvs=" << l.recvs << " pending=" << l.npending;
  if (l.pending_dropped) out << " (+" << l.pending_dropped << " dropped)";
  out << '\n';
  for (std::uint32_t i = 0; i < l.npending && i < kMaxPendingRequests; ++i) {
    const auto& p = l.pending[i];
    out << "    pending req=" << p.request << " " << class_name(p.op_class) << " peer=" << peer_text(p.peer)
        << " tag=" << tag_text(p.tag) << " comm=" << p.comm << " site=" << p.callsite << '\n';
  }
}

}  // namespace

void print_run(const RunTrace& run, std::ostream& out, bool symbolized) {
  out << "run " << (run.run_id.empty() ? "(no id)" : run.run_id) << ": " << run.ranks.size() << " ranks\n";
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    const RankTrace& rt = run.ranks[r];
    if (rt.rank < 0) {
      out << "\nrank " << r << ": no trace files\n";
      continue;
    }
    out << "\nrank " << rt.rank << " (pid " << rt.pid << "): " << rt.events.size() << " events, " << rt.sites.size()
        << " call sites" << (rt.last_event_in_progress ? ", last call IN PROGRESS" : "") << '\n';
    for (const auto& w : rt.warnings) out << "  warning: " << w << '\n';
    out << "  events:\n";
    char head[160];
    std::snprintf(head, sizeof head, "    %6s  %-22s %5s %5s %5s %9s  %9s  %s\n", "seq", "op", "peer", "tag", "comm",
                  "bytes", "duration", "status");
    out << head;
    for (const auto& e : rt.events) print_event(e, out);
    print_sites(rt, out, symbolized);
    if (rt.live) print_live(*rt.live, out);
  }
}

}  // namespace scalefuzz::trace
