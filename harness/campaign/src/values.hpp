// Parsing and canonical formatting of the scalar value kinds of a campaign:
// durations, bandwidths and plain numbers. Pure functions, no YAML.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "scalefuzz/harness/knob_display.hpp"

namespace scalefuzz::harness::detail {

// "10us", "2ms", "1.5s", "60s", "2m", "1h", "250ns" -> nanoseconds.
// nullopt when malformed or out of range; 0 is returned as 0.
std::optional<std::int64_t> parse_duration_ns(std::string_view text);

// "3.14GB/s", "100MiB/s", "1e9" (bytes per second) -> bytes per second.
std::optional<double> parse_bandwidth(std::string_view text);

// Whole-string decimal number (no units, no hex), finite.
std::optional<double> parse_number(std::string_view text);

// format_number, format_duration_ns: harness/model (the noise label uses them).
using harness::format_duration_ns;
using harness::format_number;

}  // namespace scalefuzz::harness::detail
