// Parsing of the scalar value kinds of a campaign: durations, bandwidths and
// plain numbers. Pure functions, no YAML.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace scalefuzz::settings {

// "10us", "2ms", "1.5s", "60s", "2m", "1h", "250ns" -> nanoseconds.
// nullopt when malformed or out of range; 0 is returned as 0.
std::optional<std::int64_t> parse_duration_ns(std::string_view text);

// The one duration grammar of campaign files and the command line: a
// positive duration with its unit, in nanoseconds; otherwise the problem as
// one line naming `what` (a bare number is refused with how to write it).
struct CheckedDuration {
  std::int64_t ns = 0;
  std::string problem;  // empty when ns is valid
};
CheckedDuration check_duration(std::string_view text, const std::string& what);

// "3.14GB/s", "100MiB/s", "1e9" (bytes per second) -> bytes per second.
std::optional<double> parse_bandwidth(std::string_view text);

// Whole-string decimal number (no units, no hex), finite.
std::optional<double> parse_number(std::string_view text);

}  // namespace scalefuzz::settings
