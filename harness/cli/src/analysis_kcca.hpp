// Vrisha inside the analysis step: a KCCA model trained on the campaign's
// train runs (or loaded from kcca.model), saved as OUT/kcca-model.json, then
// every test run scored; runs with ranks off the learned scale trend become
// "scale-anomaly" findings localized to the diverging call site.
#pragma once

#include <cstdint>
#include <optional>
#include <filesystem>
#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/detectors/kcca/findings.hpp"
#include "scalefuzz/detectors/kcca/kcca.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/run_store.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::cli {

inline constexpr const char* kKccaModelFile = "kcca-model.json";

// Names of the run parameters that are numbers in every one of `runs`: they
// join rank and nprocs in the control vector (others, e.g. a variant flag,
// cannot be placed on a kernel's axis).
std::vector<std::string> numeric_parameter_names(const std::vector<harness::RunRecord>& runs);

// A run's id and its numeric parameters among `numeric_names`.
detectors::kcca::RunParams kcca_run_params(const harness::RunRecord& run, const std::vector<std::string>& numeric_names);

detectors::kcca::KccaOptions kcca_options(const harness::KccaSpec& spec);
detectors::kcca::VolumeFeature kcca_volume(const harness::KccaSpec& spec);

// The GNU build id of an ELF file in hex (its .note.gnu.build-id), else
// "content-" + a hash of its bytes; "" if it cannot be read.
std::string binary_build_id(const std::filesystem::path& file);

// What a model is trained on, recorded in it (KccaModel::provenance):
// train scales of the campaign, KCCA options, the numeric parameters of the
// control vector, the application binary's build id.
nlohmann::json kcca_provenance(const harness::KccaSpec& spec, const std::vector<harness::RunRecord>& runs);

// "" when a stored model's provenance matches `expected`, else what differs.
std::string provenance_mismatch(const nlohmann::json& stored, const nlohmann::json& expected);

// Collects what KCCA needs from each run while the analysis streams over
// them (a trace is read once and dropped), then trains/loads and scores.
class KccaAnalysis {
 public:
  KccaAnalysis(const harness::KccaSpec& spec, const std::vector<harness::RunRecord>& runs,
               std::filesystem::path out_dir);

  // One finished run with its trace (unsymbolized; sites may get symbolized here).
  void add(const harness::RunRecord& run, trace::RunTrace& trace);

  // Trains (or loads) the model, writes out_dir/kcca-model.json when trained,
  // scores the test runs. Findings: one Info "scale-model" summary, one
  // "scale-anomaly" Error per test run off the trend, Info "scale-plot" per
  // clean test scale; a Warning when train runs exist but no model results.
  std::vector<detectors::Finding> finish(std::ostream* log);

 private:
  struct PendingTest {
    std::string run_id;
    std::filesystem::path dir;
    bool crashed = false;
    detectors::kcca::RunParams params;
    detectors::kcca::TestRun test;  // samples only until localization needs the profile
  };
  void symbolize_new_sites(const std::filesystem::path& dir, trace::RunTrace& trace);

  harness::KccaSpec spec_;
  std::filesystem::path out_dir_;
  std::vector<std::string> numeric_names_;
  std::vector<detectors::kcca::RankSample> train_samples_;
  std::vector<detectors::kcca::VolumeProfile> train_profiles_;
  std::set<std::string> train_runs_;
  std::set<std::uint64_t> symbolized_hashes_;
  std::vector<PendingTest> tests_;
  std::string application_module_;  // the program: frames elsewhere are library frames
  nlohmann::json provenance_;
  // kcca.model: reused when it exists and its provenance matches, else
  // (re)trained and saved there; `reuse_note_` says which and why.
  std::optional<detectors::kcca::KccaModel> stored_;
  std::string reuse_note_;
};

}  // namespace scalefuzz::cli
