// Bounds on what a campaign file may ask for, checked before the parts of the
// loader that would otherwise hang or exhaust memory: the file's size, the
// YAML parser's progress and nesting depth (yaml-cpp 0.7.0 loops forever on
// a stray ',' — jbeder/yaml-cpp#1040 — and recurses on deep nesting), and
// the number of runs the matrix expands to.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>
#include <vector>

#include "yaml_reader.hpp"

namespace scalefuzz::harness::detail {

inline constexpr std::size_t kMaxCampaignFileBytes = 4u << 20;  // campaign files are a few KiB
inline constexpr int kMaxYamlDepth = 64;                        // campaigns nest 4 levels
inline constexpr unsigned long long kMaxRuns = 1'000'000;

// Parses `text` with a counting event handler and fails (file:line:column)
// when a document nests deeper than kMaxYamlDepth or the parser stops
// making progress. Only after this passes may YAML::LoadAll see the text.
void check_yaml_is_bounded(const YamlReader& reader, const std::string& text);

// One factor of the run matrix and the key that sets it.
struct MatrixFactor {
  std::string what;  // "scales", "parameters.count", "noise", "repetitions"
  unsigned long long count;
  YAML::Mark mark;
};

// Fails at the largest factor's key when the product exceeds kMaxRuns.
void check_run_count(const YamlReader& reader, const std::vector<MatrixFactor>& factors);

}  // namespace scalefuzz::harness::detail
