#include "usage_detector.hpp"
#include "usage_section.hpp"

#include <cstring>
#include <fstream>
#include <sstream>

#include "memory_objects.hpp"
#include "scalefuzz/detectors/usage.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace scalefuzz::detectors::usage {

PlacedStack place_stack(const std::filesystem::path& run_dir, int rank, const std::vector<std::uint64_t>& addresses) {
  PlacedStack out;
  auto modules = trace::read_modules(run_dir / "ranks" / (std::to_string(rank) + ".modules"));
  for (const auto& fr : trace::symbolize_addresses(addresses, modules)) {
    out.stack.push_back(trace::format_frame(fr));
    const bool ours = fr.module.find("scalefuzz_inject") != std::string::npos;
    if (out.location.empty() && !ours && trace::is_runtime_frame(fr) && fr.module.find("libc.so") == std::string::npos)
      out.in_mpi_code = true;
    if (out.location.empty() && !ours && !trace::is_runtime_frame(fr) && !fr.file.empty()) {
      out.location = trace::format_frame(fr);
      out.code = {{"function", fr.function}, {"file", fr.file}, {"line", fr.line}, {"location", out.location}};
    }
  }
  return out;
}

// ranks/N.modified: "<post seq> <completion seq>" per nonblocking send (or
// nonblocking collective's send buffer) whose buffer changed before it
// completed, "<post seq> <completion seq> recv" per nonblocking collective
// whose receive buffer the application wrote while it was pending
// (injectors/recorder/handlers_usage_buffers.cpp).
ModifiedBuffers read_modified(const std::filesystem::path& run_dir, const trace::RunTrace& trace) {
  ModifiedBuffers out{ModifiedSends(trace.ranks.size()), ModifiedSends(trace.ranks.size())};
  for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
    std::ifstream in(run_dir / "ranks" / (std::to_string(r) + ".modified"));
    std::string line;
    for (std::size_t n = 0; n < 4096 && std::getline(in, line); ++n) {
      std::istringstream fields(line);
      std::uint64_t post = 0, done = 0;
      std::string side;
      if (!(fields >> post >> done)) continue;
      (fields >> side && side == "recv" ? out.receives : out.sends)[r].emplace_back(post, done);
    }
  }
  return out;
}

// ranks/N.accessed: "<post seq> <read|write> <last seq> <address-hex>
// <pc+1-hex> <return-address-hex> ..." per guarded pending receive the
// application touched (injectors/recorder/receive_guard.cpp).
ReceiveAccesses read_accessed(const std::filesystem::path& run_dir, const trace::RunTrace& trace) {
  ReceiveAccesses out(trace.ranks.size());
  for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
    std::ifstream in(run_dir / "ranks" / (std::to_string(r) + ".accessed"));
    std::string line;
    for (std::size_t n = 0; n < 4096 && std::getline(in, line); ++n) {
      std::istringstream fields(line);
      ReceiveAccess a;
      std::string what;
      if (!(fields >> a.post_seq >> what >> a.seq >> std::hex >> a.address) || (what != "read" && what != "write"))
        continue;
      a.write = what == "write";
      for (std::uint64_t frame = 0; a.frames.size() < 32 && fields >> frame;) a.frames.push_back(frame);
      out[r].push_back(std::move(a));
    }
  }
  return out;
}

namespace {

// The application's MPI call a rank was inside when its fatal signal came
// (the record at the signal's seq, never returned), or null.
const trace::Event* call_at_signal(const trace::RankTrace& rt) {
  const auto& fs = *rt.fatal_signal;
  if (!fs.in_call || fs.seq == 0) return nullptr;
  for (auto it = rt.events.rbegin(); it != rt.events.rend(); ++it)
    if (it->seq == fs.seq) return (it->flags & trace::kFlagChild) == 0 && it->t_exit_ns == 0 ? &*it : nullptr;
  return nullptr;
}

// A rank's own record of its fatal signal as a finding at the innermost
// application frame of the stack it captured. A signal inside an MPI call
// the application made is that call failing on its arguments (MPI-4.0 §9.3:
// MPI need not detect erroneous arguments; MPICH dereferences them): an
// invalid-argument at the call's site, not a bare crash.
std::vector<Finding> signal_findings(const analysis::RunView& run, const trace::RunTrace& trace) {
  std::vector<Finding> out;
  for (const auto& rt : trace.ranks) {
    if (rt.rank < 0 || !rt.fatal_signal) continue;
    const auto& fs = *rt.fatal_signal;
    const trace::Event* call = call_at_signal(rt);
    bool in_mpi_code = false;  // a frame of the MPI library (not libc) below the first application frame
    Finding f;
    f.detector = "usage";
    f.run_id = run.id();
    f.ranks = {rt.rank};
    const char* name = sigabbrev_np(fs.signal);
    std::string sig = name != nullptr ? std::string("SIG") + name : "signal " + std::to_string(fs.signal);
    f.details["signal"] = fs.signal;
    f.details["signal_name"] = sig;
    f.details["in_mpi_call"] = fs.in_call;
    try {
      PlacedStack placed = place_stack(run.dir(), rt.rank, fs.frames);
      in_mpi_code = placed.in_mpi_code;
      f.location = placed.location;
      if (!placed.location.empty()) {
        f.details["code"] = placed.code;
        f.details["code"]["rank"] = rt.rank;
      }
      f.details["stack"] = placed.stack;
    } catch (const std::exception&) {
      // no modules file: the finding keeps rank and signal
    }
    // A crash in application code MPI called back (a user op, an error
    // handler) is not an argument error.
    if (!in_mpi_code) call = nullptr;
    f.kind = call != nullptr ? "invalid-argument" : "fatal-signal";
    if (call != nullptr) {
      const std::string name = trace::op_name(call->op);
      f.details["call"] = name;
      f.details["seq"] = call->seq;
      f.details["rule"] = "MPI calls must be given valid arguments; an implementation need not detect invalid ones";
      f.details["section"] = "MPI-4.0 §9.3";
      f.title = run.id() + ": invalid-argument — rank " + std::to_string(rt.rank) + " died of " + sig +
                " inside " + name + (f.location.empty() ? "" : " called at " + f.location) +
                ": MPI could not use an argument (recorded by the rank)";
    } else {
      f.title = run.id() + ": fatal-signal — rank " + std::to_string(rt.rank) + " died of " + sig +
                (f.location.empty() ? "" : " at " + f.location) + " (recorded by the rank)";
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

bool run_completed(const analysis::RunEnd& end) {
  return end.kind == OutcomeKind::Ok || end.kind == OutcomeKind::WrongResult ||
         (end.kind == OutcomeKind::Failed && end.signal == 0);
}

std::vector<Finding> located_findings(const analysis::RunView& run, const std::vector<Issue>& issues) {
  const trace::RunTrace& trace = run.symbolized();
  auto locate = [&](int rank, std::size_t event) {
    return run.code_location(rank, trace.ranks[static_cast<std::size_t>(rank)].events[event].callsite);
  };
  auto locate_stack = [&](int rank, const std::vector<std::uint64_t>& stack) -> nlohmann::json {
    try {
      PlacedStack placed = place_stack(run.dir(), rank, stack);
      nlohmann::json at = {{"stack", placed.stack}};
      if (!placed.location.empty()) at["code"] = placed.code;
      return at;
    } catch (const std::exception&) {
      return nullptr;  // no modules file: the finding keeps the call's site
    }
  };
  return usage_findings(issues, trace, run.id(), locate, locate_stack);
}

namespace {

class UsageDetector : public analysis::Detector {
 public:
  std::vector<Finding> observe(const analysis::RunView& run) override {
    Options options;
    options.run_completed = run_completed(run.end());
    const auto kind = run.end().kind;
    const ModifiedBuffers modified = read_modified(run.dir(), run.trace());
    options.modified = &modified.sends;
    options.written_collectives = &modified.receives;
    options.run_hung = kind == OutcomeKind::Hang;
    const ReceiveAccesses accessed = read_accessed(run.dir(), run.trace());
    options.accessed = &accessed;
    MemoryObjects objects(run.dir(), run.trace());
    auto resolve = [&](int rank, std::size_t event, std::uint64_t address) { return objects.find(rank, event, address); };
    auto issues = check_run(run.trace(), options, resolve);
    auto crashes = signal_findings(run, run.trace());
    if (issues.empty()) return crashes;
    auto out = located_findings(run, issues);
    for (auto& f : crashes) out.push_back(std::move(f));
    return out;
  }
};

}  // namespace

std::unique_ptr<analysis::Detector> make_usage_detector(const analysis::AnalysisContext&) {
  return std::make_unique<UsageDetector>();
}

const analysis::DetectorInfo kDetector{
    "usage",
    "MPI usage errors: recorded MPI errors, pending requests, leaks, collective and type-signature mismatches",
    "usage", {analysis::Needs::Runs::All, true}, make_usage_detector, nullptr, &kReportSection};

}  // namespace scalefuzz::detectors::usage
