// Checked access to a yaml-cpp tree, every failure a CampaignError
// "file:line:column: message": the settings API's reader
// (detectors/api yaml_reader.hpp), which the techniques' section readers use
// too, named as the campaign's own readers name it.
#pragma once

#include "scalefuzz/detectors/api/yaml_reader.hpp"
#include "scalefuzz/harness/closest_name.hpp"

namespace scalefuzz::harness::detail {

using harness::closest_name;
using settings::describe;
using settings::join;
using settings::MapEntry;
using settings::YamlReader;

}  // namespace scalefuzz::harness::detail
