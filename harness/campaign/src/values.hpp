// Parsing and canonical formatting of the scalar value kinds of a campaign:
// durations, bandwidths and plain numbers. Pure functions, no YAML.
#pragma once

#include "scalefuzz/detectors/api/scalar_values.hpp"
#include "scalefuzz/harness/knob_display.hpp"

namespace scalefuzz::harness::detail {

// Parsing: the settings API's (detectors/api scalar_values.hpp), which the
// YAML reader checks values with.
using settings::check_duration;
using settings::CheckedDuration;
using settings::parse_bandwidth;
using settings::parse_duration_ns;
using settings::parse_number;

// format_number, format_duration_ns: harness/model (the noise label uses them).
using harness::format_duration_ns;
using harness::format_number;

}  // namespace scalefuzz::harness::detail
