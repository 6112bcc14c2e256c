// Night-to-night comparison of bugs: `scalefuzz diff` and `run --baseline`
// share the flags and the verdict declared here.
#pragma once

#include <filesystem>
#include <vector>
#include <string>

#include "scalefuzz/harness/bug_diff.hpp"

namespace scalefuzz::workflows {

struct BaselineOptions {
  harness::bugs::FailOn fail_on = harness::bugs::FailOn::New;
  std::filesystem::path suppressions;  // empty: none
  std::vector<std::filesystem::path> seen_in;  // --seen-in: earlier nights whose bugs are not new
};

// Compares OLD's and NEW's findings.json bugs, prints new / still there /
// gone, writes NEW/diff.json; returns 1 when --fail-on says the job fails,
// 0 otherwise, 2 (after naming them) when a suppression has expired.
// Throws UsageError for a missing or older findings.json or a bad
// suppressions file.
int compare_outputs(const std::filesystem::path& old_out, const std::filesystem::path& new_out,
                    const BaselineOptions& options);

}  // namespace scalefuzz::workflows
