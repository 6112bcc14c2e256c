// Night-to-night comparison of bugs and the suppressions file that keeps
// known bugs from failing a CI job (like a sanitizer suppressions file).
// Pure: texts in, values out; the CLI reads the files.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scalefuzz/harness/bugs.hpp"

namespace scalefuzz::harness::bugs {

// A known bug: its fingerprint, why it is tolerated, and until when.
struct Suppression {
  std::string fingerprint;
  std::string reason;
  std::optional<std::string> expires;  // YYYY-MM-DD: the last day it applies
  std::string where;                   // "FILE:LINE:COLUMN" of its entry
};

// A suppressions file that cannot be used; what() is "FILE:LINE:COLUMN: message".
class SuppressionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// YAML:
//   suppressions:
//     - fingerprint: 3f0c9a1b2d4e5f60     # 16 hex digits, from findings.json or junit.xml
//       reason: "known since #123, fix pending"
//       expires: 2026-12-31               # optional
// Unknown keys, a missing reason, a malformed fingerprint or date, and a
// fingerprint listed twice are errors. `file` names the text in messages.
std::vector<Suppression> parse_suppressions(const std::string& yaml_text, const std::string& file);

enum class FailOn { New, Any, Never };
std::optional<FailOn> parse_fail_on(const std::string& text);  // "new", "any", "never"
const char* to_string(FailOn f);

struct DiffEntry {
  BugSummary bug;                      // the newer night's, or the older's for a gone bug
  std::string first_seen;              // the earlier of both nights' first_seen
  const Suppression* suppression = nullptr;  // points into BugDiff::suppressions
};

// Bugs that are warnings or errors; informational ones are only counted.
struct BugDiff {
  std::vector<DiffEntry> new_bugs, still_there, gone;
  std::size_t informational = 0;             // of the newer night
  std::vector<Suppression> suppressions;
  std::vector<const Suppression*> expired;   // past their date (`today` > expires)
  std::vector<const Suppression*> unused;    // match no bug of either night
  // Not suppressed.
  std::size_t failing_new() const;
  std::size_t failing_still() const;
  // Whether the job fails under `fail_on` (expired suppressions are a
  // usage error the caller reports before this).
  bool fails(FailOn fail_on) const;
};

// Compares the bugs of two nights; `today` is YYYY-MM-DD (UTC).
// `earlier_bugs` are those of the nights before the old one (`--seen-in`): a
// bug among them is "still there", not new (one that shows on some nights
// only), yet never "gone" (gone compares with the old night alone).
BugDiff diff_bugs(const std::vector<BugSummary>& old_bugs, const std::vector<BugSummary>& new_bugs,
                  std::vector<Suppression> suppressions, const std::string& today,
                  const std::vector<BugSummary>& earlier_bugs = {});

// The bugs of a findings.json document (format_version 2); throws
// std::invalid_argument saying what is wrong (an older format: rewrite it
// with `scalefuzz report`).
std::vector<BugSummary> bugs_of_findings(const nlohmann::json& findings_doc);

nlohmann::json diff_to_json(const BugDiff& diff, FailOn fail_on);

}  // namespace scalefuzz::harness::bugs
