// scalefuzz analyze / report: rerun detectors, rebuild reports on stored results.
#include <filesystem>
#include <iostream>

#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/workflows/campaign_io.hpp"
#include "scalefuzz/workflows/workflows.hpp"
#include "scalefuzz/workflows/finish.hpp"
#include "scalefuzz/workflows/paths.hpp"
#include "scalefuzz/analysis/engine.hpp"
#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/engine/campaign_engine.hpp"
#include "scalefuzz/harness/launcher.hpp"
#include "scalefuzz/harness/run_store.hpp"
#include "scalefuzz/workflows/terminal_text.hpp"

namespace scalefuzz::workflows {

namespace fs = std::filesystem;

namespace {


// The detectors and their settings of the campaign stored in `store`.
struct StoredAnalysis {
  std::set<std::string> detectors;
  settings::TechniqueSettings settings;
};
StoredAnalysis stored_analysis(const harness::RunStore& store) {
  auto campaign = load_stored_campaign(store, default_build_dir());
  if (!campaign) {
    const auto all = analysis::detector_names();
    return {{all.begin(), all.end()}, {}};
  }
  return {detector_set(*campaign), campaign->settings};
}

// A single run directory (ranks/ + outcome.json) outside any store.
int analyze_single_run(const fs::path& dir) {
  std::optional<harness::Outcome> outcome;
  try {
    outcome = harness::read_outcome(dir);
  } catch (const std::exception& e) {  // unreadable input, like a corrupt rank file: exit 2
    throw UsageError(e.what());
  }
  harness::RunRecord record;
  record.dir = dir;
  record.spec.run_id = dir.filename().string();
  record.outcome = outcome ? *outcome : harness::Outcome{};
  if (!outcome) record.outcome->kind = harness::OutcomeKind::Hang;  // no outcome: assume it never ended
  analysis::AnalysisOptions options;
  options.detectors = analysis::replay_detectors();
  options.log = &std::cerr;
  auto findings = analysis::analyze_runs({record}, options);
  std::size_t serious = 0;
  for (const auto& f : findings) {
    if (f.severity != detectors::Severity::Info) ++serious;
    std::cout << "[" << f.detector << "] " << terminal_safe(f.title) << "\n";
    if (!f.location.empty() && f.title.find(f.location) == std::string::npos)  // PDG's titles name it already
      std::cout << "    at " << terminal_safe(f.location) << "\n";
    if (!f.ranks.empty()) std::cout << "    ranks " << detectors::rank_ranges(f.ranks) << "\n";
    std::cout << terminal_safe(analysis::describe_localization(f));
  }
  if (findings.empty()) std::cout << "no findings\n";
  return serious ? kExitFindings : kExitOk;
}

}  // namespace

int analyze_results(const fs::path& dir) {
  if (!fs::is_directory(dir)) throw UsageError(dir.string() + ": no such directory");
  if (!fs::exists(dir / harness::RunStore::kDbFileName)) {
    if (harness::RunDir(dir).has_traces() || harness::RunDir(dir).has_outcome()) return analyze_single_run(dir);
    throw UsageError(dir.string() + ": neither a campaign output directory nor a run directory");
  }
  harness::RunStore store = open_result_store(dir, harness::StoreAccess::ReadWrite);
  const StoredAnalysis stored = stored_analysis(store);
  return analyze_and_report(store, stored.detectors, stored.settings);
}

int report_results(const fs::path& dir) {
  harness::RunStore store = open_result_store(dir, harness::StoreAccess::ReadOnly);
  return write_reports(store);
}

}  // namespace scalefuzz::workflows
