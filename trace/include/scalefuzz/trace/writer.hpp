// Writes a RankTrace as the files the injector would produce, so detector and
// harness tests (and tools) can make real run directories without MPI.
#pragma once

#include <filesystem>
#include <string>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::trace {

// Writes run_dir/ranks/<rank>.{events,sites,features,markov[,live]} for
// `rank` (rank.rank must be in [0, rank.world_size)). Events and sites are
// written as given (seq and id are not renumbered); the Markov edges go into
// an open-addressing table with empty slots; the live file is written only if
// rank.live is set. Creates directories as needed; throws TraceError on I/O
// failure. `run_id` goes into every header.
void write_rank(const std::filesystem::path& run_dir, const RankTrace& rank,
                const std::string& run_id = "");

}  // namespace scalefuzz::trace
