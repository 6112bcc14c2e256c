// Typed reader and writer of decision logs (ranks/N.decisions, format 4;
// the byte layout is in decisions.hpp). Used by `scalefuzz replay` and by
// schedule exploration, which builds forced schedules: read a run's logs,
// change one wildcard receive's source, cut the log after it with a Free
// marker, write it to a directory and run with SCALEFUZZ_REPLAY_DIR naming it
// (trace/README.md, "Decision logs and replay").
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "scalefuzz/trace/decisions.hpp"

namespace scalefuzz::trace {

struct Decision {
  DecisionKind kind = DecisionKind::Match;
  std::uint64_t call = 0;        // number of the intercepted call that made it (1-based)
  // Match:
  std::uint64_t ordinal = 0;     // the n-th wildcard receive/probe posted on the rank (1-based)
  std::int32_t source = kNoMessage;  // world rank, or kNoMessage
  std::int32_t tag = kNoDecisionTag; // the matched tag when the call had MPI_ANY_TAG, else kNoDecisionTag
  // Poll, Index, Some, Fails: unsuccessful polls since the previous poll decision.
  std::uint64_t failures = 0;
  // Index: the index (-1 = MPI_UNDEFINED); Some: the indices.
  std::int32_t index = -1;
  std::vector<std::int32_t> indices;
  friend bool operator==(const Decision&, const Decision&) = default;
};

struct DecisionLog {
  int rank = -1;
  int world_size = 0;
  std::string run_id;
  std::vector<std::uint8_t> build_id;   // GNU build id of the recorded executable (may be empty)
  std::uint32_t flags = 0;              // kDecisionsWritten*
  std::vector<Decision> decisions;      // in log order
  // The stream stopped at a zero byte or a cut entry before an End or Free
  // entry: the rank was killed or never finalized (a replay forces up to
  // here and then says so).
  bool truncated = false;
  std::vector<std::string> warnings;

  // Statistics for the bench: bytes of entries and decisions they stand for
  // (each Match/Poll/Index/Some is one, each failed poll one more).
  std::uint64_t stream_bytes = 0;
  std::uint64_t decision_count() const;
};

// ranks/N.decisions under a run directory; N.decisions under a replay directory.
std::filesystem::path decision_log_file(const std::filesystem::path& run_dir, int rank);
std::filesystem::path replay_log_file(const std::filesystem::path& replay_dir, int rank);

// Reads one log. Throws TraceError naming the file when it is missing,
// unreadable, of another kind or version; a cut tail is `truncated`, not an error.
DecisionLog read_decision_log(const std::filesystem::path& file);

// Every rank's log of a run (index = rank). Empty when the run has no
// decision logs (format 3 runs); throws TraceError when some ranks have one
// and others not, or a log is unreadable.
std::vector<DecisionLog> read_decision_logs(const std::filesystem::path& run_dir);

// Writes `log` to `file` (through file.tmp and a rename). Entries are
// encoded in the order given; calls must not decrease. The header names
// log.rank/world_size/run_id/build_id, flags gets kDecisionsWrittenByTool.
void write_decision_log(const std::filesystem::path& file, const DecisionLog& log);

// The forced schedule of exploration: `log`'s entries up to and including
// decisions[match_index] (a Match), that entry's source (and tag, when
// `tag` != kNoDecisionTag or the entry recorded one) replaced, then a Free
// entry. Throws std::invalid_argument when match_index is not a Match.
DecisionLog force_match(const DecisionLog& log, std::size_t match_index, std::int32_t source,
                        std::int32_t tag = kNoDecisionTag);

// Why the logs in `logs` cannot be replayed with `world_size` ranks of the
// executable whose GNU build id is `build_id` (hex, as gnu_build_id() in
// symbolize.hpp gives it; empty string returned: they can). A log without a
// build id, or an executable without one (""), is not compared.
std::string replay_mismatch(const std::vector<DecisionLog>& logs, int world_size, const std::string& build_id);

// Lowercase hex of a build id ("" for none), comparable with gnu_build_id().
std::string build_id_hex(const std::vector<std::uint8_t>& id);
const char* decision_kind_name(DecisionKind k);

}  // namespace scalefuzz::trace
