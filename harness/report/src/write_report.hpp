// Atomic write of a report file, mapping I/O errors to ReportError.
#pragma once

#include <filesystem>
#include <string>

namespace scalefuzz::harness {

void write_report_file(const std::filesystem::path& file, const std::string& content);

}  // namespace scalefuzz::harness
