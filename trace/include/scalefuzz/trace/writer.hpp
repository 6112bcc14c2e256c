// Writes a RankTrace as the files the injector would produce, so detector and
// harness tests (and tools) can make real run directories without MPI.
#pragma once

#include <filesystem>
#include <string>

#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::trace {

// How the events and Markov files are written: as a finished rank leaves
// them (Packed: packed events file, dense Markov edges — what the injector
// writes at MPI_Finalize) or as a running/killed rank leaves them (Raw: Event
// records, open-addressing Markov table with empty slots).
enum class Encoding { Packed, Raw };

// Writes run_dir/ranks/<rank>.{events,sites,features,markov[,live]} for
// `rank` (rank.rank must be in [0, rank.world_size)). Events and sites are
// written as given (Raw: seq and id are not renumbered; Packed: seq is
// implicit, the events must be numbered 1, 2, 3 ...); the live file is
// written only if rank.live is set. Creates directories as needed; throws
// TraceError on I/O failure. `run_id` goes into every header.
void write_rank(const std::filesystem::path& run_dir, const RankTrace& rank,
                const std::string& run_id = "", Encoding encoding = Encoding::Packed);

}  // namespace scalefuzz::trace
