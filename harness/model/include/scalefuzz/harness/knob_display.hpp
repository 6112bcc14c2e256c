// Readable forms of stored noise-knob values (durations "10us", bandwidths
// "3.14GBps"): the one noise label of run ids, --filter, reports and
// findings.json (NoiseSpec::label()).
#pragma once

#include <cstdint>
#include <string>

#include "scalefuzz/noise/spec.hpp"

namespace scalefuzz::harness {

// Shortest round-trip fixed notation: 1.2 -> "1.2", 3.0 -> "3", 3.14e9 -> "3140000000".
std::string format_number(double value);

// Largest unit that expresses the value exactly: 10000 -> "10us", 1500000000 -> "1500ms".
std::string format_duration_ns(std::int64_t ns);

// A stored knob value in its short readable form for labels: durations
// "250ns", "10us"; bandwidths "3.14GBps"; a switch that is on ""; other
// values unchanged.
std::string display_knob_value(noise::Mode mode, const std::string& knob, const std::string& value);

}  // namespace scalefuzz::harness
