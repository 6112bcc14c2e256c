// Whole-file writes that a kill cannot leave half-written: write a sibling
// temporary file, then rename it over the target.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace scalefuzz::harness {

// Throws std::system_error (with the path in the message) on failure.
void write_file_atomic(const std::filesystem::path& file, std::string_view content);

// A name beside `file` that no other writer (thread or process) uses:
// "<file>.<tag>.<pid>.<counter>".
std::filesystem::path unique_sibling(const std::filesystem::path& file, const std::string& tag);

// Writes `content` to `file` (created or truncated) and closes it; on
// failure removes it and throws std::system_error naming the path.
void write_file_contents(const std::filesystem::path& file, std::string_view content);

// Current UTC time as "2026-11-22T05:45:48.123Z".
std::string utc_timestamp_now();

}  // namespace scalefuzz::harness
