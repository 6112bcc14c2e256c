// Writes a RankTrace as the files the injector would produce, so detector and
// harness tests (and tools) can make real run directories without MPI.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

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

// What pack_leftover_files did to a run directory.
struct LeftoverPacking {
  int ranks_packed = 0;               // raw events files replaced by packed ones
  std::uintmax_t bytes_before = 0;    // apparent size of the files of those ranks, before and after
  std::uintmax_t bytes_after = 0;
  std::vector<std::string> kept_raw;  // "N.events: why" for files left as they were
};

// Packs what ranks that never returned from MPI_Finalize (hung, killed,
// crashed, aborted) left raw in run_dir/ranks: their events files up to the
// last complete record become packed events files, their Markov tables keep
// the used edges, and never-written call-site, feature and allocation-log
// slots are cut — what the injector does itself at MPI_Finalize. Every replaced file is
// written next to the old one and renamed over it, so a kill at any moment
// leaves each file valid (raw or packed). A file readers would warn about
// (a record out of sequence, a cut record) is left raw. Call only when no
// process of the run can write its files any more. Throws nothing: problems
// are in kept_raw.
LeftoverPacking pack_leftover_files(const std::filesystem::path& run_dir);

}  // namespace scalefuzz::trace
