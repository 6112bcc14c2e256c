// scalefuzz analyze / report: rerun detectors, rebuild reports on stored results.
#include <filesystem>
#include <iostream>

#include "analysis.hpp"
#include "analysis_localize.hpp"
#include "args.hpp"
#include "campaign_io.hpp"
#include "commands.hpp"
#include "finish.hpp"
#include "paths.hpp"
#include "scalefuzz/harness/launcher.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::cli {

namespace fs = std::filesystem;

namespace {

harness::RunStore open_store(const fs::path& dir, harness::StoreAccess access) {
  if (!fs::exists(dir / harness::RunStore::kDbFileName))
    throw UsageError(dir.string() + ": not a campaign output directory (no " + harness::RunStore::kDbFileName + ")");
  try {
    return harness::RunStore::open_existing(dir, access);
  } catch (const harness::StoreError& e) {
    throw UsageError(e.what());
  }
}

std::set<std::string> stored_detectors(const harness::RunStore& store) {
  const fs::path file = store.out_dir() / kStoredCampaignName;
  if (!fs::exists(file)) return {harness::known_detectors().begin(), harness::known_detectors().end()};
  fs::path build = store.meta("build_dir") ? fs::path(*store.meta("build_dir")) : default_build_dir();
  return detector_set(load_campaign_or_usage_error(file, build));
}

// A single run directory (ranks/ + outcome.json) outside any store.
int analyze_single_run(const fs::path& dir) {
  auto outcome = harness::read_outcome(dir);
  harness::RunRecord record;
  record.dir = dir;
  record.spec.run_id = dir.filename().string();
  record.outcome = outcome ? *outcome : harness::Outcome{};
  if (!outcome) record.outcome->kind = harness::OutcomeKind::Hang;  // no outcome: assume it never ended
  AnalysisOptions options;
  options.detectors = {"mpipd", "pdg", "races"};
  options.log = &std::cerr;
  auto findings = analyze_runs({record}, options);
  std::size_t serious = 0;
  for (const auto& f : findings) {
    if (f.severity != detectors::Severity::Info) ++serious;
    std::cout << "[" << f.detector << "] " << f.title << "\n";
    if (!f.location.empty()) std::cout << "    at " << f.location << "\n";
    if (!f.ranks.empty()) std::cout << "    ranks " << detectors::rank_ranges(f.ranks) << "\n";
    std::cout << describe_localization(f);
  }
  if (findings.empty()) std::cout << "no findings\n";
  return serious ? kExitFindings : kExitOk;
}

}  // namespace

int cmd_analyze(const std::vector<std::string>& argv) {
  ArgSpec spec;
  spec.switch_flags = {"--help"};
  ParsedArgs args = parse_args(argv, spec);
  if (args.positionals.size() != 1) throw UsageError("expected exactly one DIR");
  const fs::path dir = args.positionals[0];
  if (!fs::is_directory(dir)) throw UsageError(dir.string() + ": no such directory");
  if (!fs::exists(dir / harness::RunStore::kDbFileName)) {
    if (fs::exists(dir / "ranks") || fs::exists(dir / "outcome.json")) return analyze_single_run(dir);
    throw UsageError(dir.string() + ": neither a campaign output directory nor a run directory");
  }
  harness::RunStore store = open_store(dir, harness::StoreAccess::ReadWrite);
  analyze_store(store, stored_detectors(store));
  return write_reports(store);
}

int cmd_report(const std::vector<std::string>& argv) {
  ArgSpec spec;
  spec.switch_flags = {"--help"};
  ParsedArgs args = parse_args(argv, spec);
  if (args.positionals.size() != 1) throw UsageError("expected exactly one DIR");
  harness::RunStore store = open_store(args.positionals[0], harness::StoreAccess::ReadOnly);
  return write_reports(store);
}

}  // namespace scalefuzz::cli
