#include "scalefuzz/workflows/finish.hpp"

#include <unistd.h>

#include <csignal>
#include <iostream>

#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/engine/campaign_engine.hpp"
#include "scalefuzz/harness/report.hpp"
#include "scalefuzz/workflows/terminal_text.hpp"

namespace scalefuzz::workflows {

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
  // One line per bug (findings with one fingerprint), not per finding: a
  // communicator leaked on 4 ranks of 9 runs is one bug, 36 findings.
  const std::vector<harness::bugs::Bug> bugs = harness::report_bugs(data);
  std::size_t serious_bugs = 0;
  for (const auto& b : bugs) serious_bugs += b.serious();
  std::cout << "; " << data.findings.size() << " findings (" << serious << " errors or warnings) in " << bugs.size()
            << " bugs (" << serious_bugs << " errors or warnings)\n";
  for (const auto& b : bugs) {
    if (!b.serious()) continue;
    const detectors::Finding& first = data.findings[b.occurrences.front().finding];
    std::cout << "  [" << first.detector << "] " << terminal_safe(b.title);
    // Titles that already name the code (PDG's "blocked in main (x.c:26)") are not followed by it again.
    if (!first.location.empty() && b.title.find(first.location) == std::string::npos)
      std::cout << " at " << terminal_safe(first.location);
    if (b.occurrences.size() > 1)
      std::cout << " (" << b.occurrences.size() << " findings in " << b.runs().size() << " runs)";
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

namespace {
// Ctrl-C during the analysis: the runs are stored and the findings are saved
// in one transaction at the end, so stopping at once loses nothing a later
// `scalefuzz analyze OUT` cannot redo. Exit 130 (interrupted) as the launch
// phase does, instead of dying by the signal. Async-signal-safe: write, _exit.
extern "C" void on_analysis_interrupt(int) {
  static const char msg[] = "\ninterrupted during the analysis: the runs are stored; run `scalefuzz analyze OUT` to analyse them\n";
  (void)!::write(STDERR_FILENO, msg, sizeof msg - 1);
  ::_exit(kExitInterrupted);
}

struct AnalysisInterruptGuard {
  AnalysisInterruptGuard() {
    previous_int = std::signal(SIGINT, on_analysis_interrupt);
    previous_term = std::signal(SIGTERM, on_analysis_interrupt);
  }
  ~AnalysisInterruptGuard() {
    std::signal(SIGINT, previous_int);
    std::signal(SIGTERM, previous_term);
  }
  AnalysisInterruptGuard(const AnalysisInterruptGuard&) = delete;
  AnalysisInterruptGuard& operator=(const AnalysisInterruptGuard&) = delete;
  void (*previous_int)(int);
  void (*previous_term)(int);
};
}  // namespace

int analyze_and_report(harness::RunStore& store, const std::set<std::string>& detectors,
                       const settings::TechniqueSettings& settings,
                       harness::ConsoleProgress* progress) {
  const AnalysisInterruptGuard interrupt_guard;
  if (!progress) {
    engine::analyze_store(store, detectors, settings);
    return write_reports(store);
  }
  progress->set_phase("analysing");
  engine::analyze_store(store, detectors, settings, &progress->notes(),
                        [progress](const std::string& phase) { progress->set_phase(phase); });
  return write_reports(store, progress);
}

}  // namespace scalefuzz::workflows
