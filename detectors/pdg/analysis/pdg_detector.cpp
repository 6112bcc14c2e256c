#include "pdg_detector.hpp"

#include <cstdlib>
#include <string_view>

#include "scalefuzz/detectors/pdg.hpp"

namespace scalefuzz::detectors::pdg {

namespace {

class PdgDetector : public analysis::Detector {
 public:
  PdgDetector() {
    // Groups in one loop are ordered by how often they entered their state
    // (this folder's extension; measured by bench/pdg_stall, README).
    // SCALEFUZZ_PDG_VISIT_COUNTS=0 gives the paper's §4 analysis alone.
    const char* visits = std::getenv("SCALEFUZZ_PDG_VISIT_COUNTS");
    options_.resolve_with_visit_counts = visits == nullptr || std::string_view(visits) != "0";
  }

  std::vector<Finding> observe(const analysis::RunView& run) override {
    auto result = analyze_progress(run.symbolized(), options_);
    drop_lp_groups_waiting_on_lp(result);
    std::vector<Finding> out;
    for (auto& f : pdg_findings(result, run.spec().run_id)) {
      const auto& site = f.details["site"];
      if (site.is_object() && site["id"].is_number()) {
        auto loc = run.code_location(site["rank"].get<int>(), site["id"].get<std::uint32_t>());
        if (!loc.is_null()) {
          f.details["code"] = loc;
          f.location = loc["location"].get<std::string>();
        }
      }
      out.push_back(std::move(f));
    }
    return out;
  }
  std::vector<Finding> finish() override { return {}; }

 private:
  PdgOptions options_;
};

}  // namespace

std::unique_ptr<analysis::Detector> make_pdg_detector(const analysis::AnalysisContext&) {
  return std::make_unique<PdgDetector>();
}

}  // namespace scalefuzz::detectors::pdg
