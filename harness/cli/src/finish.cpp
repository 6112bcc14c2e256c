#include "finish.hpp"

#include <iostream>

#include "scalefuzz/analysis/engine.hpp"
#include "args.hpp"
#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::cli {

std::vector<detectors::Finding> analyze_store(harness::RunStore& store, const std::set<std::string>& detectors,
                                              const harness::KccaSpec& kcca) {
  analysis::AnalysisOptions options;
  options.detectors = detectors;
  options.kcca = kcca;
  options.out_dir = store.out_dir();
  options.log = &std::cerr;
  auto findings = analysis::analyze_runs(store.runs(), options);
  store.save_findings(findings);
  return findings;
}

int write_reports(const harness::RunStore& store) {
  harness::ReportData data = harness::report_data_from_store(store);
  try {
    for (const auto& reporter : harness::default_reporters()) {
      reporter->write(data);
      std::cout << "wrote " << reporter->output_path(data).string() << "\n";
    }
  } catch (const harness::ReportError& e) {
    throw InfraError(e.what());
  }
  harness::ReportSummary s = harness::summarize(data);
  std::size_t serious = 0;
  for (const auto& f : data.findings)
    if (f.severity != detectors::Severity::Info) ++serious;
  std::cout << "campaign " << data.campaign << ": " << s.finished << "/" << s.runs << " runs finished";
  for (const auto& [label, n] : s.by_outcome) std::cout << ", " << n << " " << label;
  std::cout << "; " << data.findings.size() << " findings (" << serious << " errors or warnings)\n";
  for (const auto& f : data.findings) {
    if (f.severity == detectors::Severity::Info) continue;
    std::cout << "  [" << f.detector << "] " << f.title;
    if (!f.location.empty()) std::cout << " at " << f.location;
    std::cout << "\n";
  }
  return serious > 0 ? kExitFindings : kExitOk;
}

}  // namespace scalefuzz::cli
