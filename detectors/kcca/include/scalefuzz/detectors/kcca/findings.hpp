// Campaign-level glue: score the test runs with a trained model and turn the
// flagged ranks into "scale-anomaly" findings with a per-scale correlation
// plot (paper Fig. 5) and the localized divergent call site.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/detectors/kcca/kcca.hpp"
#include "scalefuzz/detectors/kcca/localize.hpp"
#include "scalefuzz/detectors/kcca/samples.hpp"

namespace scalefuzz::detectors::kcca {

// Everything the detector needs about one test run.
struct TestRun {
  std::string run_id;
  int nprocs = 0;
  std::vector<RankSample> samples;
  VolumeProfile profile;                       // of this run (volume_profile())
  std::optional<std::uint64_t> crash_site_hash;  // set for crashed runs (crash_site())
};

// Builds a TestRun from a trace (samples, profile; crash site when `crashed`).
TestRun test_run_from_trace(const trace::RunTrace& run, const RunParams& params, bool crashed = false,
                            VolumeFeature volume = VolumeFeature::Total, const SiteKeying& keying = {});

struct FindingOptions {
  LocalizeOptions localize;
  // Emit an Info finding carrying the plot for test scales where nothing was
  // flagged, so the report shows every scale's plot.
  bool plot_clean_scales = true;
};

// One Error finding of kind "scale-anomaly" per test run with flagged ranks
// (details: scores, threshold, divergences); the per-scale SVG plot is
// attached to the first finding of its scale.
std::vector<detectors::Finding> kcca_findings(const KccaModel& model, const std::vector<TestRun>& runs,
                                              const FindingOptions& options = {});

// The per-rank correlation plot of one scale (SVG): training ranks light,
// test ranks dark, dashed threshold line at correlation = 1 - threshold.
std::string correlation_plot_svg(const KccaModel& model, int nprocs, const std::vector<Score>& test_scores);

}  // namespace scalefuzz::detectors::kcca
