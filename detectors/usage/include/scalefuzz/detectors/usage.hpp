// MPI usage checks on a recorded run (issue 21): the errors that need not
// hang or crash. Pure functions over trace::RunTrace; every issue names the
// rule it broke, the MPI standard section, and each side's rank and record.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/trace/model.hpp"

namespace scalefuzz::detectors::usage {

// One side of an issue: a rank's record (index into RankTrace::events).
struct Side {
  int rank = -1;
  std::size_t event = 0;
  std::string role;  // "send", "receive", "root", "this rank", "other rank" ...
};

struct Issue {
  std::string kind;         // finding kind: "mpi-error", "pending-request", "type-mismatch" ...
  std::string rule;         // what the standard requires, one sentence
  std::string section;      // "MPI-4.0 §3.3.1" ...
  std::string message;      // what happened here
  Severity severity = Severity::Error;
  std::vector<Side> sides;  // first = where to look first
};

struct Options {
  // The run ended by itself (not a hang, crash or abort): the at-finalize
  // checks (pending requests, unmatched messages, missing MPI_Finalize,
  // collectives some ranks never called) only make sense then.
  bool run_completed = true;
};

std::vector<Issue> check_run(const trace::RunTrace& run, const Options& options = {});

// Individual checks (check_run calls them all; exposed for the unit tests).
void check_recorded_errors(const trace::RunTrace& run, std::vector<Issue>& out);
void check_finalize(const trace::RunTrace& run, const Options& options, std::vector<Issue>& out);
void check_collectives(const trace::RunTrace& run, const Options& options, std::vector<Issue>& out);
void check_p2p_types(const trace::RunTrace& run, const trace::Matching& matching, std::vector<Issue>& out);
void check_arguments(const trace::RunTrace& run, std::vector<Issue>& out);

// Type signatures: the flattened primitive sequence of `count` elements of a
// datatype key on a rank. Equal signatures match (MPI-4.0 §3.3.1, §6.1).
struct Signature {
  bool known = false;  // false: key undescribed, signature too long, or MPI_PACKED
  std::vector<std::pair<std::uint32_t, std::uint64_t>> runs;
};
Signature signature(const trace::RankTrace& rank, std::uint32_t key, std::int64_t count);
// True when `a` is a prefix of (or equal to) `b`; with `exact`, only equal.
bool signature_fits(const Signature& a, const Signature& b, bool exact);
// "3 x MPI_INT" style text of a (count, key) pair.
std::string describe_type(const trace::RankTrace& rank, std::uint32_t key, std::int64_t count);

// Findings from issues. `locate(rank, event)` returns the symbolized
// {file, line, function, location} JSON of that record's call site (or null).
using Locator = std::function<nlohmann::json(int rank, std::size_t event)>;
std::vector<Finding> usage_findings(const std::vector<Issue>& issues, const trace::RunTrace& run,
                                    const std::string& run_id, const Locator& locate);

}  // namespace scalefuzz::detectors::usage
