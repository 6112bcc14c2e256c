#include "pdg_detector.hpp"
#include "hangs_section.hpp"
#include "stall_judge.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <string_view>

#include "scalefuzz/detectors/pdg.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace scalefuzz::detectors::pdg {

namespace {

// Graph nodes named "function file:line" (the application frame of the call
// site) rather than by the site's hash.
std::function<std::string(const ProgramState&)> state_names(const trace::RunTrace& trace) {
  std::map<std::uint64_t, std::string> names;
  for (const auto& rt : trace.ranks)
    for (const auto& site : rt.sites) {
      if (names.count(site.stable_hash)) continue;
      const trace::Frame* f = trace::application_frame(site);
      if (!f && !site.symbolized.empty()) f = &site.symbolized.front();
      if (f && !f->function.empty())
        names[site.stable_hash] =
            f->function + " " + std::filesystem::path(f->file).filename().string() + ":" + std::to_string(f->line);
    }
  return [names = std::move(names)](const ProgramState& s) -> std::string {
    if (s.is_start) return "start (before the first MPI call)";
    if (auto it = names.find(s.stable_hash); it != names.end()) return it->second;
    return "MPI call site " + detectors::hex64(s.stable_hash);
  };
}

class PdgDetector : public analysis::Detector {
 public:
  PdgDetector() {
    // Groups in one loop are ordered by how often they entered their state
    // (this folder's extension; measured by bench/pdg_stall, README).
    // SCALEFUZZ_PDG_VISIT_COUNTS=0 gives the paper's §4 analysis alone.
    const char* visits = std::getenv("SCALEFUZZ_PDG_VISIT_COUNTS");
    options_.resolve_with_visit_counts = visits == nullptr || std::string_view(visits) != "0";
  }

  std::vector<Finding> observe(const analysis::RunView& run) override {
    // A recorded MPI error is the root cause (detector usage), not a hang.
    for (const auto& rt : run.trace().ranks)
      if (!rt.errors.empty()) return {};
    const trace::RunTrace& trace = run.symbolized();
    PdgOptions options = options_;
    options.state_label = state_names(trace);
    auto result = analyze_progress(trace, options);
    drop_lp_groups_waiting_on_lp(result);
    std::vector<Finding> out;
    for (auto& f : pdg_findings(result, run.id())) {
      const auto& site = f.details["site"];
      if (site.is_object() && site["id"].is_number()) {
        auto loc = run.code_location(site["rank"].get<int>(), site["id"].get<std::uint32_t>());
        if (!loc.is_null()) {
          f.details["code"] = loc;
          f.location = loc["location"].get<std::string>();
          // The title names the site by its hash; a reader wants the code.
          const std::string hashed = "MPI call site " + site.value("stable_hash", std::string());
          if (auto at = f.title.find(hashed); at != std::string::npos) f.title.replace(at, hashed.size(), f.location);
        }
      }
      out.push_back(std::move(f));
    }
    return out;
  }

 private:
  PdgOptions options_;
};

}  // namespace

std::unique_ptr<analysis::Detector> make_pdg_detector(const analysis::AnalysisContext&) {
  return std::make_unique<PdgDetector>();
}

constexpr analysis::KindLabel kKindLabels[] = {
    {"lp-task", "least-progressed task"}, {"aborted-task", "task that called MPI_Abort"}, {nullptr, nullptr}};

namespace {

// The tasks the point-to-point step set aside, for `scalefuzz analyze RUN_DIR`.
std::string explain_stop(const Finding& f) {
  if (!f.details.contains("eliminated_tasks") || f.details["eliminated_tasks"].get<std::string>().empty()) return "";
  return "    eliminated by the point-to-point step: " + f.details["eliminated_tasks"].get<std::string>() + "\n";
}

}  // namespace

const analysis::DetectorInfo kDetector{
    "pdg", "hangs and crashes: least-progressed tasks of the progress-dependence graph (AutomaDeD)", "hangs",
    {analysis::Needs::Runs::Failed, true}, make_pdg_detector, nullptr, &kReportSection, kKindLabels,
    {.localizes_stops = true, .analyses_replays = true, .explain_stop = explain_stop}, judge_stalls};

}  // namespace scalefuzz::detectors::pdg
