// The one table of detectors. Adding one: its glue in
// detectors/<name>/analysis/ (a Detector and its make_ function), one line
// here, its target in this folder's CMakeLists.txt (README.md).
#include "scalefuzz/analysis/registry.hpp"

#include "dmtracker_detector.hpp"
#include "kcca_detector.hpp"
#include "kcca_evaluation.hpp"
#include "mpipd_detector.hpp"
#include "pdg_detector.hpp"
#include "races_detector.hpp"
#include "rma_detector.hpp"
#include "usage_detector.hpp"

namespace scalefuzz::analysis {

namespace {

constexpr Needs kEveryRun{Needs::Runs::All, true};
constexpr Needs kFailedRuns{Needs::Runs::Failed, true};

}  // namespace

const std::vector<DetectorInfo>& registry() {
  // Order: the order findings are listed in (per run, then campaign-wide).
  static const std::vector<DetectorInfo> table = {
      {"races", "message races: receives matched by a send never seen in the quiet runs (NINJA)", "races",
       kEveryRun, detectors::races::make_races_detector},
      {"kcca", "scale bugs: ranks of test runs off the KCCA scale trend learned at the train scales (Vrisha)",
       "scale-models", kEveryRun, detectors::kcca::make_kcca_detector, detectors::kcca::kcca_model_problem},
      {"dmtracker",
       "silent data-movement bugs: broken frequent chains and outlier processes by their chain distribution (DMTracker)",
       "dmtracker", kEveryRun, detectors::dmtracker::make_dmtracker_detector},
      {"mpipd", "hangs and crashes: failure situation and faulty processes (MPI-PreDebugger)", "hangs",
       kFailedRuns, detectors::mpipd::make_mpipd_detector},
      {"pdg", "hangs and crashes: least-progressed tasks of the progress-dependence graph (AutomaDeD)", "hangs",
       kFailedRuns, detectors::pdg::make_pdg_detector},
      {"usage", "MPI usage errors: recorded MPI errors, pending requests, leaks, collective and type-signature mismatches",
       "usage", kEveryRun, detectors::usage::make_usage_detector},
      {"rma", "one-sided communication: epoch errors, leaked windows, RMA data races and origin buffers touched early",
       "usage", kEveryRun, detectors::rma::make_rma_detector},
  };
  return table;
}

std::vector<std::string> detector_names() {
  std::vector<std::string> names;
  for (const auto& d : registry()) names.emplace_back(d.name);
  return names;
}

const DetectorInfo* find_detector(const std::string& name) {
  for (const auto& d : registry())
    if (name == d.name) return &d;
  return nullptr;
}

}  // namespace scalefuzz::analysis
