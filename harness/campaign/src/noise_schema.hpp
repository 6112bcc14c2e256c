// The noise section: which knobs each mode accepts and how they are checked
// and normalised into NoiseSpec::settings — all from the noise spec
// (injectors/noise/spec/scalefuzz/noise/spec.hpp).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

#include "scalefuzz/harness/run_spec.hpp"
#include "yaml_reader.hpp"

namespace scalefuzz::harness::detail {

const std::vector<std::string>& known_noise_modes_list();

// One entry of the noise list, e.g. {mode: system, scale: 1.2, latency: 250ns}.
NoiseSpec read_noise_entry(const YamlReader& reader, const YAML::Node& node, const std::string& what);

}  // namespace scalefuzz::harness::detail
