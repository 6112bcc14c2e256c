#include "mpipd_detector.hpp"

#include "scalefuzz/detectors/mpipd.hpp"

namespace scalefuzz::detectors::mpipd {

namespace {

class MpipdDetector : public analysis::Detector {
 public:
  std::vector<Finding> observe(const analysis::RunView& run) override {
    const analysis::RunEnd& o = run.end();
    const trace::RunTrace& trace = run.symbolized();
    MpipdInput input;
    input.outcome = to_string(o.kind);
    if (o.kind == OutcomeKind::Crashed) input.crashed_rank = o.crashed_rank;
    input.signal = o.signal;
    // The rank's own record of its fatal signal beats mpiexec's exit code,
    // which names whichever signal ended the job (issue 21).
    for (const auto& rt : trace.ranks)
      if (rt.rank >= 0 && rt.fatal_signal) {
        input.crashed_rank = rt.rank;
        input.signal = rt.fatal_signal->signal;
        break;
      }
    // A recorded MPI error is the root cause (detector usage reports it);
    // the wait-for situation after it is no deadlock (issue 21).
    for (const auto& rt : trace.ranks)
      if (!rt.errors.empty()) return {};
    auto result = localize_failure(trace, input);
    std::vector<Finding> out;
    for (auto& f : mpipd_findings(result, trace, run.id())) {
      // Code location of the first faulty process's failure event.
      for (int r : result.faulty) {
        const auto& fe = result.failure_events[static_cast<std::size_t>(r)];
        if (!fe.event) continue;
        const auto& ev = trace.ranks[static_cast<std::size_t>(r)].events[*fe.event];
        auto loc = run.code_location(r, ev.callsite);
        if (loc.is_null()) continue;
        f.details["code"] = loc;
        if (f.location.empty()) f.location = loc["location"].get<std::string>();
        break;
      }
      out.push_back(std::move(f));
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<analysis::Detector> make_mpipd_detector(const analysis::AnalysisContext&) {
  return std::make_unique<MpipdDetector>();
}

constexpr analysis::KindLabel kKindLabels[] = {{"deadlock", "deadlock"},
                                               {"calculation-fault", "calculation fault"},
                                               {"non-occurred-event", "event that never occurred"},
                                               {"buffer-overflow", "buffer overflow"},
                                               {nullptr, nullptr}};

namespace {

// The failure situation in words (backtracked from the failure events), for
// `scalefuzz analyze RUN_DIR`.
std::string explain_stop(const Finding& f) {
  if (!f.details.contains("explanation")) return "";
  return "    " + f.details["explanation"].get<std::string>() + "\n";
}

}  // namespace

// Its findings show in the PDG's "hangs" section (detectors/pdg/report/).
const analysis::DetectorInfo kDetector{
    "mpipd", "hangs and crashes: failure situation and faulty processes (MPI-PreDebugger)", "hangs",
    {analysis::Needs::Runs::Failed, true}, make_mpipd_detector, nullptr, nullptr, kKindLabels,
    {.localizes_stops = true, .analyses_replays = true, .explain_stop = explain_stop}};

}  // namespace scalefuzz::detectors::mpipd
