// Text helpers shared by the reporters (private to the report library).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace scalefuzz::harness::text {

// Replaces every invalid UTF-8 sequence with U+FFFD.
std::string sanitize_utf8(std::string_view in);

// Escapes for XML 1.0 / HTML text and attribute values: & < > " ' are
// entities; control characters XML forbids become visible "\xNN"; invalid
// UTF-8 becomes U+FFFD. The result is always well-formed character data.
std::string xml_escape(std::string_view in);
// xml_escape by the short name the HTML writers use.
inline std::string esc(std::string_view in) { return xml_escape(in); }

// The last `max_lines` lines of a file (reading at most its last 64 KiB);
// "" if the file is missing.
std::string file_tail(const std::filesystem::path& file, std::size_t max_lines);

// Durations a person reads: "0.42s", "12.3s", "2m05s", "1h02m".
std::string human_seconds(double seconds);

// Fixed "%.3f" (JUnit time attributes).
std::string fixed3(double value);

}  // namespace scalefuzz::harness::text
