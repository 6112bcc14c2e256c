// Vrisha on the plug-in contract (detectors/api): a KCCA model trained on the campaign's
// train runs (or loaded from kcca.model), saved as OUT/kcca-model.json, then
// every test run scored; runs with ranks off the learned scale trend become
// "scale-anomaly" findings localized to the diverging call site.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "scalefuzz/detectors/api/detector.hpp"
#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/detectors/kcca/findings.hpp"
#include "scalefuzz/detectors/kcca/kcca.hpp"
#include "scalefuzz/detectors/kcca/settings.hpp"

namespace scalefuzz::detectors::kcca {

inline constexpr const char* kKccaModelFile = "kcca-model.json";

// Names of the run parameters that are numbers in every one of `runs`: they
// join rank and nprocs in the control vector (others, e.g. a variant flag,
// cannot be placed on a kernel's axis).
std::vector<std::string> numeric_parameter_names(const std::vector<analysis::RunInfo>& runs);

// A run's id and its numeric parameters among `numeric_names`.
detectors::kcca::RunParams kcca_run_params(const analysis::RunInfo& run, const std::vector<std::string>& numeric_names);

detectors::kcca::KccaOptions kcca_options(const Settings& spec);
detectors::kcca::VolumeFeature kcca_volume(const Settings& spec);
// kcca.library_sites for `run` (its binary is the application module).
detectors::kcca::SiteKeying kcca_site_keying(const Settings& spec, const analysis::RunInfo& run);

// kcca.chain_features: DMTracker's chain distribution of the run (its
// trace, its run directory for the allocation logs) joins each rank's
// observation vector (Vrisha §4.1 takes any per-process observable; issue
// 17). Used by the detector and by kcca-eval alike.
void add_chain_features(const trace::RunTrace& trace, const std::filesystem::path& run_dir,
                        std::vector<detectors::kcca::RankSample>& samples);

// The GNU build id of a binary (trace::gnu_build_id), else "content-" + a
// hash of its bytes; "" if it cannot be read.
std::string binary_build_id(const std::filesystem::path& file);

// What a model is trained on, recorded in it (KccaModel::provenance):
// train scales of the campaign, KCCA options, the numeric parameters of the
// control vector, the application binary's build id.
nlohmann::json kcca_provenance(const Settings& spec, const std::vector<analysis::RunInfo>& runs);

// "" when a stored model's provenance matches `expected`, else what differs.
std::string provenance_mismatch(const nlohmann::json& stored, const nlohmann::json& expected);

// The detector: collects what KCCA needs from each run while the analysis
// streams over them, then trains (or loads) the model and scores the test runs.
std::unique_ptr<analysis::Detector> make_kcca_detector(const analysis::AnalysisContext& context);
// Its registration (scalefuzz_register_detector(kcca)): constant data, ready before any code runs.
extern const analysis::DetectorInfo kDetector;

}  // namespace scalefuzz::detectors::kcca
