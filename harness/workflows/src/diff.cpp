// scalefuzz diff OLD_OUT NEW_OUT, and `run --baseline OLD_OUT`: the bugs of
// two campaign outputs compared by fingerprint (harness/bugs).
#include "scalefuzz/workflows/diff.hpp"

#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include "scalefuzz/workflows/errors.hpp"
#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/bug_diff.hpp"
#include "scalefuzz/harness/run_json.hpp"

namespace scalefuzz::workflows {

namespace fs = std::filesystem;
namespace bugs = harness::bugs;

namespace {

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<bugs::BugSummary> bugs_of_out(const fs::path& out) {
  const fs::path file = out / "findings.json";
  if (!fs::is_regular_file(file))
    throw UsageError(out.string() + ": no findings.json (not a campaign output directory, or its campaign never finished)");
  try {
    return bugs::bugs_of_findings(nlohmann::json::parse(read_text(file)));
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(file.string() + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    throw UsageError(file.string() + ": " + e.what());
  }
}

std::string today_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

void print_entries(const char* heading, const std::vector<bugs::DiffEntry>& entries) {
  if (entries.empty()) return;
  std::cout << heading << ":\n";
  for (const auto& e : entries) {
    std::cout << "  " << e.bug.fingerprint << " " << detectors::to_string(e.bug.severity) << " " << e.bug.signature
              << " (" << e.bug.occurrences << (e.bug.occurrences == 1 ? " occurrence" : " occurrences");
    if (!e.first_seen.empty()) std::cout << ", first seen " << e.first_seen;
    std::cout << ")";
    if (e.suppression) std::cout << " [suppressed: " << e.suppression->reason << "]";
    std::cout << "\n";
  }
}

}  // namespace

int compare_outputs(const fs::path& old_out, const fs::path& new_out, const BaselineOptions& options) {
  std::vector<bugs::Suppression> suppressions;
  if (!options.suppressions.empty()) {
    try {
      suppressions = bugs::parse_suppressions(read_text(options.suppressions), options.suppressions.string());
    } catch (const bugs::SuppressionError& e) {
      throw UsageError(e.what());
    }
  }
  std::vector<bugs::BugSummary> earlier;
  for (const auto& dir : options.seen_in) {
    auto more = bugs_of_out(dir);
    earlier.insert(earlier.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  const auto diff = bugs::diff_bugs(bugs_of_out(old_out), bugs_of_out(new_out), std::move(suppressions), today_utc(),
                                    earlier);
  const fs::path report = new_out / "diff.json";
  auto doc = bugs::diff_to_json(diff, options.fail_on);
  doc["old_out"] = fs::absolute(old_out).lexically_normal().string();
  doc["new_out"] = fs::absolute(new_out).lexically_normal().string();
  doc["seen_in"] = nlohmann::json::array();
  for (const auto& dir : options.seen_in) doc["seen_in"].push_back(fs::absolute(dir).lexically_normal().string());
  try {
    harness::write_file_atomic(report, harness::dump_json(doc) + "\n");
  } catch (const std::exception& e) {
    throw InfraError("cannot write " + report.string() + ": " + e.what());
  }

  std::cout << "bugs of " << new_out.string() << " against " << old_out.string() << ": " << diff.new_bugs.size()
            << " new, " << diff.still_there.size() << " still there, " << diff.gone.size()
            << " gone (warnings and errors; " << diff.informational << " informational not compared)\n";
  print_entries("new", diff.new_bugs);
  print_entries("still there", diff.still_there);
  print_entries("gone", diff.gone);
  for (const auto* s : diff.unused)
    std::cout << "note: " << s->where << ": suppression of " << s->fingerprint << " matches no bug\n";
  std::cout << "wrote " << report.string() << "\n";
  if (!diff.expired.empty()) {
    for (const auto* s : diff.expired)
      std::cerr << "error: " << s->where << ": the suppression of " << s->fingerprint << " expired on " << *s->expires
                << " (" << s->reason << "): fix the bug, or extend or remove the suppression\n";
    return kExitUsage;
  }
  const bool fails = diff.fails(options.fail_on);
  std::cout << "verdict (--fail-on " << bugs::to_string(options.fail_on) << "): "
            << (fails ? "fail" : "pass") << " (" << diff.failing_new() << " new and " << diff.failing_still()
            << " still there, not suppressed)\n";
  return fails ? kExitFindings : kExitOk;
}

}  // namespace scalefuzz::workflows
