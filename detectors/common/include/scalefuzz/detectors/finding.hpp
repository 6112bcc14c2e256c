// What every detector returns and every reporter renders.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scalefuzz/common/enum_names.hpp"

namespace scalefuzz::detectors {

enum class Severity { Info, Warning, Error };
inline constexpr EnumName<Severity> kSeverityNames[] = {
    {Severity::Info, "info"}, {Severity::Warning, "warning"}, {Severity::Error, "error"}};
inline const char* to_string(Severity s) { return name_of(kSeverityNames, s); }

// A file the reporters embed or link: a Graphviz graph, an SVG plot, a table.
struct Artifact {
  std::string name;       // "pdg", "timeline", "correlation-scale-16"
  std::string media_type; // "text/vnd.graphviz", "image/svg+xml", "text/plain", "application/json"
  std::string content;
};

struct Finding {
  std::string detector;   // a registered detector (harness/analysis), "outcome", "trace"
  std::string kind;       // detector-specific: "unintended-match", "scale-anomaly", "lp-task", "deadlock" ...
  Severity severity = Severity::Error;
  std::string run_id;     // run it concerns ("" if campaign-wide)
  std::string title;      // one line: what a person should know first
  std::string location;   // symbolized code location "func (file:line)", if any
  std::vector<int> ranks; // ranks involved (world ranks)
  nlohmann::json details = nlohmann::json::object();  // detector-specific, goes to findings.json
  std::vector<Artifact> artifacts;
};

// Compact range text of whole numbers: {0,1,2,3,7} -> "0-3,7" (sorted,
// duplicates dropped). The form of rank sets and of SLURM's --array.
std::string number_ranges(std::vector<long> values);
// "0x" and 16 hex digits: call-site hashes and addresses in findings.
std::string hex64(std::uint64_t value);
// number_ranges of ranks.
std::string rank_ranges(const std::vector<int>& ranks);

}  // namespace scalefuzz::detectors
