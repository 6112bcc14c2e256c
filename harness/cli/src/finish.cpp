#include "finish.hpp"

#include <iostream>

#include "args.hpp"
#include "scalefuzz/engine/campaign_engine.hpp"
#include "scalefuzz/harness/report.hpp"
#include "terminal_text.hpp"

namespace scalefuzz::cli {

int write_reports(const harness::RunStore& store, harness::ConsoleProgress* progress) {
  harness::ReportData data = harness::report_data_from_store(store);
  std::vector<std::filesystem::path> written;
  try {
    // All reports or none (issue 36): a file that cannot be written leaves every report as it was.
    written = harness::finalize_reports(data, harness::default_reporters(), [progress](const std::filesystem::path& p) {
      if (progress) progress->set_phase("writing " + p.filename().string());
    });
  } catch (const harness::ReportError& e) {
    if (progress) progress->finish();
    throw InfraError(e.what());
  }
  if (progress) progress->finish();
  for (const auto& path : written) std::cout << "wrote " << path.string() << "\n";
  harness::ReportSummary s = harness::summarize(data);
  std::size_t serious = 0;
  for (const auto& f : data.findings)
    if (f.severity != detectors::Severity::Info) ++serious;
  std::cout << "campaign " << data.campaign << ": " << s.finished << "/" << s.runs << " runs finished";
  for (const auto& [label, n] : s.by_outcome) std::cout << ", " << n << " " << label;
  std::cout << "; " << data.findings.size() << " findings (" << serious << " errors or warnings)\n";
  for (const auto& f : data.findings) {
    if (f.severity == detectors::Severity::Info) continue;
    std::cout << "  [" << f.detector << "] " << terminal_safe(f.title);
    // Titles that already name the code (PDG's "blocked in main (x.c:26)") are not followed by it again.
    if (!f.location.empty() && f.title.find(f.location) == std::string::npos)
      std::cout << " at " << terminal_safe(f.location);
    std::cout << "\n";
  }
  // A run that could not be launched (launcher, binary or injector missing,
  // a result check the harness cannot apply) says nothing about the
  // application: the campaign did not test what it should (exit 3, not 1).
  std::size_t launch_errors = 0;
  const harness::RunRecord* first_launch_error = nullptr;
  for (const auto& r : data.runs)
    if (r.outcome && r.outcome->kind == harness::OutcomeKind::LaunchError) {
      ++launch_errors;
      if (!first_launch_error) first_launch_error = &r;
    }
  if (first_launch_error) {
    std::cerr << terminal_safe("scalefuzz: " + std::to_string(launch_errors) +
                               " runs could not be launched (a problem of the harness or the setup, not of the "
                               "application), first " + first_launch_error->spec.run_id + ": " +
                               first_launch_error->outcome->detail)
              << "\n";
    return kExitInfra;
  }
  return serious > 0 ? kExitFindings : kExitOk;
}

int analyze_and_report(harness::RunStore& store, const std::set<std::string>& detectors,
                       const harness::KccaSpec& kcca, const harness::DmtrackerSpec& dmtracker,
                       harness::ConsoleProgress* progress) {
  if (!progress) {
    engine::analyze_store(store, detectors, kcca, dmtracker);
    return write_reports(store);
  }
  progress->set_phase("analysing");
  engine::analyze_store(store, detectors, kcca, dmtracker, &progress->notes(),
                        [progress](const std::string& phase) { progress->set_phase(phase); });
  return write_reports(store, progress);
}

}  // namespace scalefuzz::cli
