// Bugs, not runs (DESIGN.md): every finding gets a stable fingerprint from its
// detector, kind and normalized location; findings with one fingerprint form
// one bug whose occurrences are the runs it showed in. Pure functions: no
// store, no files; the reporters and `scalefuzz diff` build on them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "scalefuzz/detectors/finding.hpp"

namespace scalefuzz::harness::bugs {

// A code location as the fingerprint sees it: function and file basename:line.
// Addresses, directories, module offsets after a function and compiler clone suffixes
// (".constprop.0", ".isra.0", ".part.1", ".cold") are dropped, so the text
// is the same across nights, machines and build directories:
//   "send_then_receive (/tmp/x/scenarios/spine/deadlock_cycle.c:42)"
//        -> "send_then_receive deadlock_cycle.c:42"
//   "MPIR_Wait (libmpi.so.12+0x1f3a0)" -> "MPIR_Wait libmpi.so.12";  "0x7f12ab" -> ""
//   "/usr/bin/app+0x1f3a0" -> "app+0x1f3a0" (no function: a stripped binary's
//   frame keeps its module-relative offset, else its bugs would all merge)
std::string normalize_location(std::string_view location);

// What identifies a bug. `locations` are normalized (the first is where it
// is; a second is the other routine a finding names, details.send_routine); `context` is what tells
// campaign-wide findings without a location apart (a campaign point).
struct BugKey {
  std::string detector, kind;
  std::vector<std::string> locations;
  std::string context;
  bool operator==(const BugKey&) const = default;
};

// 16 lowercase hex digits (FNV-1a 64 of the key's canonical text). The
// canonical text holds what identifies the bug: the detector, the kind and
// the locations, except that a hang is identified by the source file of its
// location alone (its localizers land on whichever frame of the blocked
// stacks they pick) and a finding naming two routines by its first alone (a
// message race: the sending routine is whichever competing message the
// run's receive took).
std::string fingerprint(const BugKey& key);
// "outcome/hang at send_then_receive deadlock_cycle.c:42": the key, readable.
std::string signature(const BugKey& key);

// The key of one finding on its own: its location, plus the second routine
// where a detector names two (races: the sending routine in
// details.send_routine); a finding without a location uses
// details.campaign_point as context. Titles, ranks, seeds and counts never
// take part.
BugKey finding_key(const detectors::Finding& finding);

// What a bug's occurrences say about the run they are in.
struct RunInfo {
  std::string run_id;
  int nprocs = 0;
  std::string noise;      // noise label
  std::string seed;       // decimal text: 64-bit seeds do not survive JSON numbers
  std::string seen_at;    // when the run finished (UTC), "" if unknown
};

struct Occurrence {
  std::string run_id;     // "" for a campaign-wide finding
  int nprocs = 0;
  std::string noise, seed, seen_at;
  std::vector<int> ranks;
  std::size_t finding = 0;  // index into the findings grouped
};

struct Bug {
  std::string fingerprint;
  BugKey key;
  std::string signature;
  detectors::Severity severity = detectors::Severity::Info;  // the most severe occurrence
  std::string title;                    // of the first occurrence
  std::vector<Occurrence> occurrences;  // one per finding, in findings order
  // Findings of the same runs that localize this bug (Roles::localizing,
  // for a failed run), and for a root cause the failed runs it caused (their
  // outcome findings and localizers: a hang blocked in the receive that
  // quiet runs deliver the taken message to): evidence shown with it, not
  // bugs of their own.
  std::vector<std::size_t> related;
  std::string first_seen, last_seen;    // over the occurrences' seen_at ("" if none known)

  std::vector<std::string> runs() const;      // distinct run ids, sorted, without ""
  std::vector<std::string> noise() const;     // distinct noise labels, sorted
  std::vector<int> ranks() const;             // union of the occurrences' ranks, sorted
  bool serious() const { return severity != detectors::Severity::Info; }
};

// A detector's kind of finding.
struct FindingKind {
  std::string detector, kind;
  bool operator==(const FindingKind&) const = default;
};

// What the techniques' findings are to the grouping, as their registrations
// declare them (DetectorInfo::roles; analysis::bug_roles() reads them from
// the registry): harness/bugs names no technique.
struct Roles {
  // Detectors whose findings localize a failed run, in order of preference:
  // they join the bug of the run's outcome finding, which takes the
  // location of the first of theirs (in this order) that has one.
  std::vector<std::string> localizing;
  // Findings that can be the root cause of a failed run of the same run: a
  // failed run blocked in a receive their details.quiet_runs_deliver_it_to
  // names is shown with their bug. Their detectors' bugs read first.
  std::vector<FindingKind> root_causes;
  // A race that struck, and a race that could strike: a potential race at
  // the receive of a struck one of its campaign point is evidence of its bug.
  std::vector<FindingKind> races, potential_races;

  bool localizes(const std::string& detector) const;
  bool is_root_cause(const detectors::Finding& finding) const;
  bool is_race(const detectors::Finding& finding) const;
  bool is_potential_race(const detectors::Finding& finding) const;
};

// Groups findings into bugs, ordered: serious before informational, then by
// severity, then causes before symptoms (detectors with root-cause findings,
// e.g. message races; then failed runs the localizing detectors localized,
// then other detectors' findings, then failed runs nothing localized), then
// by first occurrence. `runs` supplies what occurrences record; a finding
// of a run not in `runs` still becomes an occurrence, with only its run id.
// `roles` say which detectors localize and which findings cause others.
// `campaign_seen_at` dates campaign-wide findings. Every reporter lists
// bugs in this order.
std::vector<Bug> group_findings(const std::vector<detectors::Finding>& findings, const std::vector<RunInfo>& runs,
                                const Roles& roles, const std::string& campaign_seen_at = "");

// findings.json's representation (docs/findings.schema.json, "bugs").
nlohmann::json bug_to_json(const Bug& bug);

// What `scalefuzz diff` needs of a stored bug; read back from findings.json.
struct BugSummary {
  std::string fingerprint, signature, detector, kind, title;
  detectors::Severity severity = detectors::Severity::Info;
  std::size_t occurrences = 0;
  std::vector<std::string> runs;
  std::string first_seen, last_seen;
};
BugSummary summarize(const Bug& bug);
// Throws std::invalid_argument naming the missing or wrong field.
BugSummary bug_summary_from_json(const nlohmann::json& j);

}  // namespace scalefuzz::harness::bugs
