// Internal helpers for reading and writing whole trace files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace scalefuzz::trace::detail {

// Whole file contents; throws TraceError naming the path on failure.
std::vector<unsigned char> read_file_bytes(const std::filesystem::path& file);

// Replaces `file` with `bytes` (write to a temp name, then rename).
void write_file_bytes(const std::filesystem::path& file, const void* data, std::size_t size);

std::filesystem::path rank_file(const std::filesystem::path& run_dir, int rank, const char* ext);

}  // namespace scalefuzz::trace::detail
