#include <map>
#include <sstream>

#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/report.hpp"
#include "scalefuzz/harness/run_json.hpp"
#include "text.hpp"
#include "write_report.hpp"

namespace scalefuzz::harness {

using text::xml_escape;

std::filesystem::path JunitReporter::output_path(const ReportData& data) const {
  return file_.empty() ? data.out_dir / "junit.xml" : file_;
}

namespace {

struct Testcase {
  std::string name, classname;
  double seconds = 0;
  enum class Status { Pass, Failure, Error, Skipped } status = Status::Pass;
  std::string type, message, body, system_err;
};

struct Suite {
  std::string name;
  std::vector<Testcase> cases;
};

std::string finding_line(const detectors::Finding& f) {
  std::string s = "[" + f.detector + "/" + f.kind + "] " + detectors::to_string(f.severity) + ": " + f.title;
  if (!f.ranks.empty()) s += " (ranks " + detectors::rank_ranges(f.ranks) + ")";
  if (!f.location.empty()) s += " at " + f.location;
  return s;
}

std::string finding_body(const detectors::Finding& f) {
  std::string s = finding_line(f) + "\n";
  if (!f.details.empty()) s += "details: " + dump_json(f.details) + "\n";
  for (const auto& a : f.artifacts) s += "artifact: " + a.name + " (" + a.media_type + "), see report.html\n";
  return s;
}

Testcase run_testcase(const RunRecord& r, const std::string& classname,
                      const std::vector<const detectors::Finding*>& findings, std::size_t tail_lines) {
  Testcase tc;
  tc.name = r.spec.run_id;
  tc.classname = classname;
  if (!r.outcome) {
    tc.status = Testcase::Status::Skipped;
    tc.message = "run did not finish (campaign interrupted)";
    return tc;
  }
  const Outcome& o = *r.outcome;
  tc.seconds = o.wall_seconds;
  const bool bad_outcome = o.kind != OutcomeKind::Ok;
  // A hang the campaign caused on purpose (stall injection) comes with an
  // informational outcome finding: it passes unless a finding is serious.
  const bool expected = bad_outcome && outcome_expected(findings);
  const detectors::Finding* serious = nullptr;
  for (const auto* f : findings)
    if (f->severity != detectors::Severity::Info && !serious) serious = f;
  if (!bad_outcome && findings.empty()) return tc;

  std::ostringstream body;
  body << "outcome: " << to_string(o.kind) << "\n";
  if (!o.detail.empty()) body << "detail: " << o.detail << "\n";
  body << "exit code: " << o.exit_code << ", signal: " << o.signal << ", wall time: " << text::human_seconds(o.wall_seconds)
       << "\nrun directory: " << r.dir.string() << "\n";
  if (!findings.empty()) {
    body << "\nfindings:\n";
    for (const auto* f : findings) body << "- " << finding_body(*f);
  }
  if (!o.stacks.empty()) {
    body << "\nstacks:\n";
    for (const auto& s : o.stacks) body << "--- rank " << s.rank << " (pid " << s.pid << ") ---\n" << s.text << "\n";
  }
  tc.body = body.str();
  if (bad_outcome && !expected) {
    tc.status = o.kind == OutcomeKind::LaunchError ? Testcase::Status::Error : Testcase::Status::Failure;
    tc.type = to_string(o.kind);
    tc.message = std::string(to_string(o.kind)) + (o.detail.empty() ? "" : ": " + o.detail);
    if (!findings.empty()) tc.message += " (+" + std::to_string(findings.size()) + " findings)";
    tc.system_err = text::file_tail(harness::RunDir(r.dir).stderr_file(), tail_lines);
  } else if (serious != nullptr || !expected) {
    tc.status = Testcase::Status::Failure;
    tc.type = "finding";
    tc.message = finding_line(serious != nullptr ? *serious : *findings.front());
    if (findings.size() > 1) tc.message += " (+" + std::to_string(findings.size() - 1) + " more)";
  } else {
    tc.system_err = tc.body;  // expected and judged fine: shown, not failed
    tc.body.clear();
  }
  return tc;
}

Testcase finding_testcase(const detectors::Finding& f, const std::string& classname, std::size_t index) {
  Testcase tc;
  tc.name = std::to_string(index + 1) + ". " + f.detector + "/" + f.kind + ": " + f.title;
  tc.classname = classname;
  tc.body = finding_body(f);
  if (f.severity == detectors::Severity::Info) {
    tc.system_err = tc.body;  // informational: shown, not failed
    tc.body.clear();
  } else {
    tc.status = Testcase::Status::Failure;
    tc.type = "finding";
    tc.message = finding_line(f);
  }
  return tc;
}

void write_testcase(std::ostringstream& xml, const Testcase& tc) {
  xml << "    <testcase name=\"" << xml_escape(tc.name) << "\" classname=\"" << xml_escape(tc.classname)
      << "\" time=\"" << text::fixed3(tc.seconds) << "\"";
  if (tc.status == Testcase::Status::Pass && tc.system_err.empty()) {
    xml << "/>\n";
    return;
  }
  xml << ">\n";
  switch (tc.status) {
    case Testcase::Status::Pass: break;
    case Testcase::Status::Skipped: xml << "      <skipped message=\"" << xml_escape(tc.message) << "\"/>\n"; break;
    case Testcase::Status::Failure:
    case Testcase::Status::Error: {
      const char* tag = tc.status == Testcase::Status::Error ? "error" : "failure";
      xml << "      <" << tag << " message=\"" << xml_escape(tc.message) << "\" type=\"" << xml_escape(tc.type)
          << "\">" << xml_escape(tc.body) << "</" << tag << ">\n";
      break;
    }
  }
  if (!tc.system_err.empty()) xml << "      <system-err>" << xml_escape(tc.system_err) << "</system-err>\n";
  xml << "    </testcase>\n";
}

}  // namespace

void JunitReporter::write(const ReportData& data) {
  constexpr std::size_t kTailLines = 40;
  std::map<std::string, std::vector<const detectors::Finding*>> findings_by_run;
  std::vector<const detectors::Finding*> campaign_findings;
  std::map<std::string, bool> known_runs;
  for (const auto& r : data.runs) known_runs[r.spec.run_id] = true;
  for (const auto& f : data.findings) {
    if (!f.run_id.empty() && known_runs.count(f.run_id)) findings_by_run[f.run_id].push_back(&f);
    else campaign_findings.push_back(&f);
  }

  // One suite per (scale, noise), in the order of the runs.
  std::vector<Suite> suites;
  std::map<std::string, std::size_t> suite_index;
  for (const auto& r : data.runs) {
    const std::string name = data.campaign + ".np" + std::to_string(r.spec.nprocs) + "." + r.spec.noise.label();
    auto [it, inserted] = suite_index.emplace(name, suites.size());
    if (inserted) suites.push_back({name, {}});
    suites[it->second].cases.push_back(run_testcase(r, name, findings_by_run[r.spec.run_id], kTailLines));
  }
  if (!campaign_findings.empty()) {
    Suite s{data.campaign + ".findings", {}};
    for (std::size_t i = 0; i < campaign_findings.size(); ++i)
      s.cases.push_back(finding_testcase(*campaign_findings[i], s.name, i));
    suites.push_back(std::move(s));
  }

  std::ostringstream body;
  std::size_t total_tests = 0, total_failures = 0, total_errors = 0, total_skipped = 0;
  double total_time = 0;
  const std::string timestamp = data.started_at.empty() ? utc_timestamp_now() : data.started_at;
  for (const auto& s : suites) {
    std::size_t failures = 0, errors = 0, skipped = 0;
    double time = 0;
    for (const auto& tc : s.cases) {
      failures += tc.status == Testcase::Status::Failure;
      errors += tc.status == Testcase::Status::Error;
      skipped += tc.status == Testcase::Status::Skipped;
      time += tc.seconds;
    }
    body << "  <testsuite name=\"" << xml_escape(s.name) << "\" tests=\"" << s.cases.size() << "\" failures=\""
         << failures << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\"" << text::fixed3(time)
         << "\" timestamp=\"" << xml_escape(timestamp) << "\">\n";
    for (const auto& tc : s.cases) write_testcase(body, tc);
    body << "  </testsuite>\n";
    total_tests += s.cases.size();
    total_failures += failures;
    total_errors += errors;
    total_skipped += skipped;
    total_time += time;
  }
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"scalefuzz " << xml_escape(data.campaign) << "\" tests=\"" << total_tests
      << "\" failures=\"" << total_failures << "\" errors=\"" << total_errors << "\" skipped=\"" << total_skipped
      << "\" time=\"" << text::fixed3(total_time) << "\">\n"
      << body.str() << "</testsuites>\n";
  write_report_file(output_path(data), xml.str());
}

}  // namespace scalefuzz::harness
