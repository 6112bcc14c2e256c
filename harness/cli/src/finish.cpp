#include "finish.hpp"

#include <iostream>

#include "args.hpp"
#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::cli {

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
