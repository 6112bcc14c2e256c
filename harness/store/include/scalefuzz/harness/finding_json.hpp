// JSON form of detector findings, as written to findings.json and the store.
// Named functions (not ADL to_json) so detectors_common can add its own later
// without a clash.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scalefuzz/detectors/finding.hpp"

namespace scalefuzz::harness {

nlohmann::json finding_to_json(const detectors::Finding& finding);
// Throws nlohmann::json::exception / std::invalid_argument on malformed input.
detectors::Finding finding_from_json(const nlohmann::json& j);
std::optional<detectors::Severity> severity_from_string(const std::string& s);

}  // namespace scalefuzz::harness
