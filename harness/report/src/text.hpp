// Text helpers shared by the reporters (private to the report library).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "scalefuzz/detectors/api/html_kit.hpp"

namespace scalefuzz::harness::text {

// The escapes live in the HTML kit below the harness (detectors/api), which
// the techniques' report sections use too.
using html_kit::esc;
using html_kit::fixed3;  // Fixed "%.3f" (JUnit time attributes)
using html_kit::sanitize_utf8;
using html_kit::xml_escape;

// The last `max_lines` lines of a file (reading at most its last 64 KiB);
// "" if the file is missing.
std::string file_tail(const std::filesystem::path& file, std::size_t max_lines);

// Durations a person reads: "0.42s", "12.3s", "2m05s", "1h02m".
std::string human_seconds(double seconds);

}  // namespace scalefuzz::harness::text
