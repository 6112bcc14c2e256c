#include "replay.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "decisions.hpp"
#include "scalefuzz/trace/decisions.hpp"
#include "scalefuzz/trace/header.hpp"
#include "scalefuzz/trace/ops.hpp"
#include "state.hpp"

namespace scalefuzz::trace {
const char* op_name(std::uint16_t op);
}

namespace scalefuzz::inject {

constinit bool g_replaying = false;

namespace {
using trace::DecisionKind;

struct Entry {
  trace::RawDecision d;
  std::vector<int> indices;
  bool consumed = false;
};

struct Replay {
  std::vector<Entry> entries;
  std::unordered_map<std::uint64_t, std::size_t> by_ordinal;  // Match ordinal -> entry
  std::size_t cursor = 0;
  bool finished = false;   // the log ends with End or Free (else it was cut: a killed rank)
  bool report = true;      // SCALEFUZZ_REPLAY_DIVERGENCE=report (default) or free
  std::uint64_t last_call = 0;
  std::uint16_t last_op = 0;
  std::uint32_t last_site = 0;
  std::size_t consumed = 0;
  std::size_t remaining = 0;      // entries not consumed yet (Fails and End/Free excluded)
  std::uint64_t max_ordinal = 0;  // the highest wildcard ordinal the log names
  // A cut log (the rank never finalized: killed at an abort, a crash or a
  // timeout), with SCALEFUZZ_REPLAY_CUT=hold (default): the rank stops where
  // the recorded one ended — at the entry of call `hold_at` (from the
  // recorded rank's live state, REPLAY_DIR/N.live; 0: unknown), or earlier
  // at a wildcard receive or a Waitany/Waitsome the log never saw decided —
  // so the ranks still running reproduce the end the recorded run had.
  bool hold = true;
  std::uint64_t hold_at = 0;       // hold at the entry of this call (the rank was between calls)
  std::uint64_t hold_inside = 0;   // hold when this call returns (the rank was inside it)
  bool ended_noted = false;
  std::string out_path;    // RUN_DIR/ranks/N.replay
  int rank = 0;
};
Replay* g_replay = nullptr;

void note(const char* fmt, const std::string& text) {
  if (g_replay->out_path.empty()) return;
  FILE* f = std::fopen(g_replay->out_path.c_str(), "a");
  if (f == nullptr) return;
  std::fprintf(f, fmt, text.c_str());
  std::fclose(f);
}

std::string describe(const Entry& e) {
  char buf[160];
  const trace::RawDecision& d = e.d;
  switch (d.kind) {
    case DecisionKind::Match:
      if (d.tag != trace::kNoDecisionTag)
        std::snprintf(buf, sizeof buf, "wildcard receive #%llu -> rank %d tag %d", static_cast<unsigned long long>(d.ordinal),
                      d.source, d.tag);
      else
        std::snprintf(buf, sizeof buf, "wildcard receive #%llu -> rank %d", static_cast<unsigned long long>(d.ordinal), d.source);
      break;
    case DecisionKind::Poll: std::snprintf(buf, sizeof buf, "a successful test/probe"); break;
    case DecisionKind::Index: std::snprintf(buf, sizeof buf, "Waitany/Testany -> index %d", d.index); break;
    case DecisionKind::Some:
      std::snprintf(buf, sizeof buf, "Waitsome/Testsome -> %llu indices", static_cast<unsigned long long>(d.nindices));
      break;
    default: std::snprintf(buf, sizeof buf, "MPI_Finalize"); break;
  }
  return buf;
}

// Stops forcing; with the report policy writes where and why.
void diverge(const Entry* expected, std::uint64_t call, std::uint16_t op, std::uint32_t site, const std::string& why) {
  g_replaying = false;
  if (!g_replay->report) return;
  char line[512];
  std::snprintf(line, sizeof line, "diverged call=%llu site=%u got=%s recorded_call=%llu recorded=%s%s%s",
                static_cast<unsigned long long>(call), site, trace::op_name(op),
                static_cast<unsigned long long>(expected != nullptr ? expected->d.call : 0),
                expected != nullptr ? describe(*expected).c_str() : "nothing", why.empty() ? "" : " why=", why.c_str());
  note("%s\n", line);
  std::fprintf(stderr, "scalefuzz: rank %d diverged from the replayed log at call #%llu (%s): recorded %s, got %s%s%s\n",
               g_replay->rank, static_cast<unsigned long long>(call), trace::op_name(op),
               expected != nullptr ? describe(*expected).c_str() : "nothing", trace::op_name(op), why.empty() ? "" : ": ",
               why.c_str());
}

// Stops this rank for good (until the run is killed): where the recorded
// rank ended.
[[noreturn]] void hold_here(std::uint64_t call, const char* why) {
  char line[160];
  std::snprintf(line, sizeof line, "held call=%llu forced=%zu why=%s", static_cast<unsigned long long>(call),
                g_replay->consumed, why);
  note("%s\n", line);
  for (;;) ::pause();
}

bool cut_and_done(const Replay& r) { return !r.finished && r.remaining == 0; }

bool compatible(DecisionKind k, trace::OpClass cls) {
  using trace::OpClass;
  switch (k) {
    case DecisionKind::Match:
      return cls == OpClass::Recv || cls == OpClass::Sendrecv || cls == OpClass::Probe || cls == OpClass::Completion;
    case DecisionKind::Poll:
    case DecisionKind::Index:
    case DecisionKind::Some: return cls == OpClass::Completion || cls == OpClass::Probe;
    case DecisionKind::Fails:
    case DecisionKind::End: return cls == OpClass::Finalize;
    case DecisionKind::Free: return true;
  }
  return false;
}

bool load(const std::string& file, State& s, std::string& why) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    why = file + ": " + std::strerror(errno);
    return false;
  }
  std::vector<std::uint8_t> bytes;
  std::uint8_t buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    bytes.insert(bytes.end(), buf, buf + n);
  }
  ::close(fd);
  constexpr std::size_t kStream = sizeof(trace::FileHeader) + sizeof(trace::DecisionPreamble);
  if (bytes.size() < kStream) {
    why = file + ": shorter than its header";
    return false;
  }
  trace::FileHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (const char* p = trace::header_problem(h, trace::FileKind::Decisions)) {
    why = file + ": " + p;
    return false;
  }
  if (h.world_size != s.size) {
    why = file + ": recorded with " + std::to_string(h.world_size) + " ranks, this run has " + std::to_string(s.size);
    return false;
  }
  trace::DecisionPreamble pre;
  std::memcpy(&pre, bytes.data() + sizeof h, sizeof pre);
  std::uint8_t mine[32];
  const std::size_t nmine = exe_build_id(mine, sizeof mine);
  if (pre.build_id_len != 0 && nmine != 0 &&
      (pre.build_id_len != nmine || std::memcmp(pre.build_id, mine, nmine) != 0)) {
    why = file + ": recorded with another binary (GNU build id differs)";
    return false;
  }
  Replay& r = *g_replay;
  const std::uint8_t* p = bytes.data() + kStream;
  const std::uint8_t* end = bytes.data() + bytes.size();
  trace::DecisionCursor cur;
  for (;;) {
    Entry e;
    if (trace::decode_entry(p, end, cur, e.d) != trace::DecodeStatus::Ok) break;
    const std::uint8_t* q = e.d.indices;
    for (std::uint64_t i = 0; i < e.d.nindices; ++i) {
      std::uint64_t v = 0;
      trace::get_varint(q, end, v);
      e.indices.push_back(static_cast<int>(v));
    }
    e.d.indices = nullptr;
    if (e.d.kind == DecisionKind::Match) {
      r.by_ordinal[e.d.ordinal] = r.entries.size();
      if (e.d.ordinal > r.max_ordinal) r.max_ordinal = e.d.ordinal;
    }
    const bool last = e.d.kind == DecisionKind::End || e.d.kind == DecisionKind::Free;
    if (!last && e.d.kind != DecisionKind::Fails) ++r.remaining;
    r.entries.push_back(std::move(e));
    if (last) {
      r.finished = true;
      break;
    }
  }
  if (!r.finished) {
    // Where the recorded rank was when it ended: its live state.
    const std::string live = file.substr(0, file.size() - std::strlen("decisions")) + "live";
    const int lfd = ::open(live.c_str(), O_RDONLY | O_CLOEXEC);
    if (lfd >= 0) {
      trace::FileHeader lh;
      trace::LiveState ls;
      if (::pread(lfd, &lh, sizeof lh, 0) == static_cast<ssize_t>(sizeof lh) &&
          trace::header_problem(lh, trace::FileKind::Live) == nullptr &&
          ::pread(lfd, &ls, sizeof ls, sizeof lh) == static_cast<ssize_t>(sizeof ls) && ls.version % 2 == 0)
        (ls.in_call ? r.hold_inside : r.hold_at) = ls.in_call ? ls.calls : ls.calls + 1;
      ::close(lfd);
    }
  }
  return true;
}
}  // namespace

int comm_rank_of_world(const CommInfo* comm, int world) {
  if (comm == nullptr || world < 0) return MPI_ANY_SOURCE;
  if (comm->identity) return world < comm->size ? world : MPI_ANY_SOURCE;
  for (std::size_t i = 0; i < comm->to_world.size(); ++i)
    if (comm->to_world[i] == world) return static_cast<int>(i);
  return MPI_ANY_SOURCE;
}

void replay_start(State& s) {
  const char* dir = std::getenv("SCALEFUZZ_REPLAY_DIR");
  if (dir == nullptr || dir[0] == '\0' || !s.recording) return;
  g_replay = new Replay();
  g_replay->rank = s.rank;
  g_replay->out_path = s.ranks_dir + "/" + std::to_string(s.rank) + ".replay";
  if (const char* cut = std::getenv("SCALEFUZZ_REPLAY_CUT")) {
    if (std::strcmp(cut, "free") == 0)
      g_replay->hold = false;
    else if (std::strcmp(cut, "hold") != 0 && cut[0] != '\0')
      std::fprintf(stderr, "scalefuzz: SCALEFUZZ_REPLAY_CUT=%s is neither hold nor free; using hold\n", cut);
  }
  if (const char* policy = std::getenv("SCALEFUZZ_REPLAY_DIVERGENCE")) {
    if (std::strcmp(policy, "free") == 0)
      g_replay->report = false;
    else if (std::strcmp(policy, "report") != 0 && policy[0] != '\0')
      std::fprintf(stderr, "scalefuzz: SCALEFUZZ_REPLAY_DIVERGENCE=%s is neither report nor free; using report\n", policy);
  }
  std::string why;
  const std::string file = std::string(dir) + "/" + std::to_string(s.rank) + ".decisions";
  if (!load(file, s, why)) {
    note("refused %s\n", why);
    std::fprintf(stderr, "scalefuzz: rank %d: not replaying: %s\n", s.rank, why.c_str());
    return;
  }
  g_replaying = true;
}

void replay_on_return(std::uint64_t call) {
  const Replay& r = *g_replay;
  // Inside the call, as the recorded rank was (its effects done: a barrier
  // the others passed, a message sent).
  if (r.hold && r.hold_inside != 0 && call == r.hold_inside) hold_here(call, "the-recorded-rank-ended-inside-this-call");
}

void replay_on_call(const Call& c, std::uint64_t call, std::uint32_t site) {
  Replay& r = *g_replay;
  if (r.hold && r.hold_inside != 0 && call > r.hold_inside) hold_here(call, "the-recorded-rank-ended-before-this-call");
  if (r.hold && r.hold_at != 0 && call >= r.hold_at) hold_here(call, "the-recorded-rank-ended-here");
  while (r.cursor < r.entries.size() && r.entries[r.cursor].d.call < call) {
    Entry& e = r.entries[r.cursor];
    if (e.d.kind == DecisionKind::Free) {
      g_replaying = false;
      char line[64];
      std::snprintf(line, sizeof line, "free call=%llu", static_cast<unsigned long long>(call));
      note("%s\n", line);
      return;
    }
    if (!e.consumed && e.d.kind != DecisionKind::Fails) {
      diverge(&e, r.last_call, r.last_op, r.last_site, "the recorded decision was not made");
      return;
    }
    ++r.cursor;
  }
  if (r.cursor == r.entries.size()) {
    if (!r.finished && !r.ended_noted) {
      r.ended_noted = true;
      char line[96];
      std::snprintf(line, sizeof line, "log-ended call=%llu forced=%zu", static_cast<unsigned long long>(call), r.consumed);
      note("%s\n", line);
    }
    // A cut log held: the rank goes on until it reaches where it ended.
    if (r.finished || !r.hold) g_replaying = false;
    r.last_call = call;
    r.last_op = c.op;
    r.last_site = site;
    return;
  }
  for (std::size_t i = r.cursor; i < r.entries.size() && r.entries[i].d.call == call; ++i)
    if (!compatible(r.entries[i].d.kind, c.cls)) {
      diverge(&r.entries[i], call, c.op, site, "");
      return;
    }
  r.last_call = call;
  r.last_op = c.op;
  r.last_site = site;
}

bool replay_force_post(std::uint64_t ordinal, const CommInfo* comm, bool blocking, int& source, int& tag) {
  Replay& r = *g_replay;
  auto it = r.by_ordinal.find(ordinal);
  // A wildcard receive the cut log never saw matched, posted after all it
  // recorded: the recorded rank had not got further.
  if (it == r.by_ordinal.end() && r.hold && cut_and_done(r) && ordinal > r.max_ordinal)
    hold_here(r.last_call, "a-wildcard-receive-the-log-never-saw-matched");
  if (it == r.by_ordinal.end()) {
    // A blocking one completes now: a complete log must name it.
    if (blocking && r.finished && !r.entries.empty() && r.entries.back().d.kind == DecisionKind::End)
      diverge(nullptr, r.last_call, r.last_op, r.last_site,
              "the log has no match for wildcard receive #" + std::to_string(ordinal));
    return false;
  }
  const Entry& e = r.entries[it->second];
  if (blocking && e.d.call != r.last_call) {
    diverge(&e, r.last_call, r.last_op, r.last_site, "wildcard receive #" + std::to_string(ordinal) + " at another call");
    return false;
  }
  if (e.d.source < 0) return false;
  const int s = comm_rank_of_world(comm, e.d.source);
  if (s == MPI_ANY_SOURCE) return false;
  source = s;
  if (e.d.tag != trace::kNoDecisionTag) tag = e.d.tag;
  return true;
}

void replay_check_match(std::uint64_t ordinal, std::int32_t source, std::int32_t tag, std::uint64_t call) {
  Replay& r = *g_replay;
  auto it = r.by_ordinal.find(ordinal);
  if (it == r.by_ordinal.end()) return;
  Entry& e = r.entries[it->second];
  if (e.consumed) return;
  if (e.d.call != call || e.d.source != source || (e.d.tag != trace::kNoDecisionTag && e.d.tag != tag)) {
    diverge(&e, call, r.last_op, r.last_site,
            "matched rank " + std::to_string(source) + " tag " + std::to_string(tag) + " at call #" + std::to_string(call));
    return;
  }
  e.consumed = true;
  ++r.consumed;
  --r.remaining;
}

PollForce replay_poll(bool must_succeed) {
  PollForce f;
  Replay& r = *g_replay;
  const std::uint64_t call = r.last_call;
  for (std::size_t i = r.cursor; i < r.entries.size() && r.entries[i].d.call == call; ++i) {
    Entry& e = r.entries[i];
    if (e.consumed) continue;
    const DecisionKind k = e.d.kind;
    if (k != DecisionKind::Poll && k != DecisionKind::Index && k != DecisionKind::Some) continue;
    e.consumed = true;
    ++r.consumed;
    --r.remaining;
    f.plan = PollPlan::Succeed;
    f.index = e.d.index;
    f.nindices = static_cast<int>(e.indices.size());
    f.indices = e.indices.data();
    return f;
  }
  if (r.hold && cut_and_done(r)) {
    // After a cut log: polls fail as recorded (the rank polled on until it
    // ended); a Waitany/Waitsome the log never saw return held the rank.
    if (must_succeed) hold_here(call, "a-waitany-the-log-never-saw-return");
    f.plan = PollPlan::Fail;
    return f;
  }
  if (must_succeed) {
    const Entry* next = r.cursor < r.entries.size() ? &r.entries[r.cursor] : nullptr;
    diverge(next, call, r.last_op, r.last_site, "the log has no Waitany/Waitsome outcome here");
    return f;
  }
  f.plan = PollPlan::Fail;
  return f;
}

void replay_finalize() {
  if (g_replay == nullptr) return;
  Replay& r = *g_replay;
  if (g_replaying) {
    for (std::size_t i = r.cursor; i < r.entries.size(); ++i)
      if (r.entries[i].d.kind == DecisionKind::End) r.entries[i].consumed = true;
    char line[96];
    std::snprintf(line, sizeof line, "complete forced=%zu", r.consumed);
    note("%s\n", line);
  }
  g_replaying = false;
}

}  // namespace scalefuzz::inject
