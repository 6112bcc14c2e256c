#include <cctype>
#include <map>
#include <sstream>

#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/report.hpp"
#include "scalefuzz/harness/run_json.hpp"
#include "text.hpp"

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
  std::vector<std::pair<std::string, std::string>> properties;
  std::string type, message, failure_text, system_out, system_err;
};

struct Suite {
  std::string name;
  std::vector<Testcase> cases;
};

// Jenkins splits a classname at its dots into package and class: dots (and
// anything else unusual) inside a value become '_'.
std::string classname_part(const std::string& value) {
  std::string out;
  for (char c : value) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return out.empty() ? "_" : out;
}

// The point a run belongs to: scale, parameters and noise (repetitions are
// its runs). Its name is the same every night.
std::string point_name(const RunSpec& spec) {
  std::string s = "np" + std::to_string(spec.nprocs);
  for (const auto& [k, v] : spec.params) s += " " + k + "=" + v;
  return s + " noise=" + spec.noise.label();
}

std::string finding_line(const detectors::Finding& f) {
  std::string s = "[" + f.detector + "/" + f.kind + "] " + detectors::to_string(f.severity) + ": " + f.title;
  if (!f.ranks.empty()) s += " (ranks " + detectors::rank_ranges(f.ranks) + ")";
  if (!f.location.empty()) s += " at " + f.location;
  return s;
}

// Keeps one line for an attribute: CI tools show messages in lists.
std::string one_line(std::string s, std::size_t max = 200) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.size() > max) s = s.substr(0, max - 3) + "...";
  return s;
}

struct RunVerdict {
  const RunRecord* run = nullptr;
  bool bad_outcome = false, expected = false;
  const detectors::Finding* serious = nullptr;
  bool fails() const { return (bad_outcome && !expected) || serious != nullptr; }
};

RunVerdict judge(const RunRecord& r, const std::vector<const detectors::Finding*>& findings) {
  RunVerdict v;
  v.run = &r;
  if (!r.outcome) return v;
  // A skipped run never ran: the run that kept it from starting is the failure.
  v.bad_outcome = r.outcome->kind != OutcomeKind::Ok && r.outcome->kind != OutcomeKind::Skipped;
  // A hang the campaign caused on purpose (stall injection) comes with an
  // informational outcome finding: it passes unless a finding is serious.
  v.expected = v.bad_outcome && outcome_expected(findings);
  for (const auto* f : findings)
    if (f->severity != detectors::Severity::Info && !v.serious) v.serious = f;
  return v;
}

void describe_run(std::ostringstream& out, const ReportData& data, const RunRecord& r,
                  const std::vector<const detectors::Finding*>& findings,
                  const std::map<const detectors::Finding*, std::string>& bug_of) {
  out << "== run " << r.spec.run_id << " (seed " << r.spec.seed << ", noise " << r.spec.noise.label() << ")\n";
  if (!r.outcome) {
    out << "unfinished\n\n";
    return;
  }
  const Outcome& o = *r.outcome;
  out << "outcome: " << to_string(o.kind) << (o.detail.empty() ? "" : " — " + o.detail) << "\n"
      << "exit code: " << o.exit_code << ", signal: " << o.signal
      << ", wall time: " << text::human_seconds(o.wall_seconds) << "\nrun directory: " << r.dir.string()
      << "\nreplay: " << replay_command(data, r) << "\n";
  for (const auto* f : findings) {
    out << "- " << finding_line(*f);
    if (auto it = bug_of.find(f); it != bug_of.end()) out << " [bug " << it->second << "]";
    out << "\n";
  }
  for (const auto& s : o.stacks) out << "--- rank " << s.rank << " (pid " << s.pid << ") ---\n" << s.text << "\n";
  out << "\n";
}

Testcase point_testcase(const ReportData& data, const std::string& classname, const std::string& name,
                        const std::vector<const RunRecord*>& runs,
                        const std::map<std::string, std::vector<const detectors::Finding*>>& findings_by_run,
                        const std::map<const detectors::Finding*, std::string>& bug_of) {
  static const std::vector<const detectors::Finding*> kNone;
  auto findings_of = [&](const RunRecord& r) -> const std::vector<const detectors::Finding*>& {
    const auto it = findings_by_run.find(r.spec.run_id);
    return it == findings_by_run.end() ? kNone : it->second;
  };
  constexpr std::size_t kTailLines = 40;
  Testcase tc;
  tc.name = name;
  tc.classname = classname;
  std::vector<RunVerdict> verdicts;
  std::size_t finished = 0;
  for (const auto* r : runs) {
    verdicts.push_back(judge(*r, findings_of(*r)));
    if (r->outcome) {
      ++finished;
      tc.seconds += r->outcome->wall_seconds;
    }
  }
  const RunVerdict* first_failing = nullptr;
  std::size_t failing = 0;
  std::map<std::string, bool> bugs_seen;
  for (const auto& v : verdicts) {
    if (v.fails()) {
      ++failing;
      if (!first_failing) first_failing = &v;
    }
    for (const auto* f : findings_of(*v.run))
      if (auto it = bug_of.find(f); it != bug_of.end()) bugs_seen[it->second] = true;
  }
  // The run a person replays: the first failing one, else the first.
  const RunRecord& shown = first_failing ? *first_failing->run : *runs.front();
  std::string bug_list;
  for (const auto& [fp, _] : bugs_seen) bug_list += (bug_list.empty() ? "" : " ") + fp;
  tc.properties = {{"nprocs", std::to_string(shown.spec.nprocs)},
                   {"noise", shown.spec.noise.label()},
                   {"runs", std::to_string(runs.size())},
                   {"run_id", shown.spec.run_id},
                   {"seed", std::to_string(shown.spec.seed)},
                   {"replay", replay_command(data, shown)}};
  if (!bug_list.empty()) tc.properties.emplace_back("bugs", bug_list);

  std::ostringstream details;
  for (const auto& v : verdicts)
    if (v.fails() || v.bad_outcome || !findings_of(*v.run).empty()) describe_run(details, data, *v.run, findings_of(*v.run), bug_of);
  tc.system_out = details.str();

  if (finished == 0) {
    tc.status = Testcase::Status::Skipped;
    tc.message = "no run of this point finished (campaign interrupted)";
    return tc;
  }
  if (!first_failing) return tc;
  const RunRecord& r = *first_failing->run;
  const bool launch_error = first_failing->bad_outcome && r.outcome->kind == OutcomeKind::LaunchError;
  tc.status = launch_error || is_rerunnable(r.outcome->kind) ? Testcase::Status::Error : Testcase::Status::Failure;
  if (first_failing->bad_outcome && !first_failing->expected) {
    tc.type = to_string(r.outcome->kind);
    tc.message = tc.type + (r.outcome->detail.empty() ? "" : ": " + r.outcome->detail);
    tc.system_err = text::file_tail(harness::RunDir(r.dir).stderr_file(), kTailLines);
  } else {
    tc.type = "finding";
    tc.message = finding_line(*first_failing->serious);
  }
  tc.message = one_line(tc.message) + " (" + std::to_string(failing) + " of " + std::to_string(runs.size()) +
               " runs" + (bugs_seen.empty() ? "" : ", bugs " + bug_list) + ")";
  tc.failure_text = "first failing run: " + r.spec.run_id + " (seed " + std::to_string(r.spec.seed) +
                    ")\nreplay: " + replay_command(data, r) + "\ndetails of every run: system-out\n";
  return tc;
}

Testcase bug_testcase(const ReportData& data, const std::string& classname, const bugs::Bug& bug,
                      const std::map<std::string, const RunRecord*>& run_by_id) {
  Testcase tc;
  tc.name = bug.fingerprint + " " + bug.signature;
  tc.classname = classname;
  const auto runs = bug.runs();
  std::string noise;
  for (const auto& n : bug.noise()) noise += (noise.empty() ? "" : " ") + n;
  tc.properties = {{"fingerprint", bug.fingerprint}, {"signature", bug.signature},
                   {"severity", detectors::to_string(bug.severity)},
                   {"occurrences", std::to_string(bug.occurrences.size())},
                   {"runs", std::to_string(runs.size())}};
  if (!noise.empty()) tc.properties.emplace_back("noise", noise);
  const bugs::Occurrence& first = bug.occurrences.front();
  if (!first.run_id.empty()) {
    tc.properties.emplace_back("run_id", first.run_id);
    tc.properties.emplace_back("seed", first.seed);
    if (auto it = run_by_id.find(first.run_id); it != run_by_id.end())
      tc.properties.emplace_back("replay", replay_command(data, *it->second));
  }
  std::ostringstream out;
  out << "bug " << bug.fingerprint << ": " << bug.signature << "\n"
      << "first seen " << (bug.first_seen.empty() ? "?" : bug.first_seen) << ", last seen "
      << (bug.last_seen.empty() ? "?" : bug.last_seen) << "\n\noccurrences:\n";
  for (const auto& o : bug.occurrences) {
    const auto& f = data.findings[o.finding];
    out << "- " << (o.run_id.empty() ? "campaign-wide" : o.run_id);
    if (!o.run_id.empty()) out << " (np " << o.nprocs << ", noise " << o.noise << ", seed " << o.seed << ")";
    out << ": " << finding_line(f) << "\n";
  }
  if (!bug.related.empty()) {
    out << (bug.key.detector == "outcome" ? "\nlocalized by:\n" : "\nwith it (the failures it caused, and where it was seen before it struck):\n");
    for (std::size_t i : bug.related) out << "- " << data.findings[i].run_id << ": " << finding_line(data.findings[i]) << "\n";
  }
  out << "\nfull details: findings.json (bugs[].fingerprint = " << bug.fingerprint << ")\n";
  tc.system_out = out.str();
  if (bug.serious()) {
    tc.status = Testcase::Status::Failure;
    tc.type = bug.key.detector + "/" + bug.key.kind;
    tc.message = one_line(bug.signature) + " (" + std::to_string(bug.occurrences.size()) + " occurrences in " +
                 std::to_string(runs.size()) + " runs)";
    tc.failure_text = one_line(bug.title, 1000) + "\n";
  }
  return tc;
}

void write_testcase(std::ostringstream& xml, const Testcase& tc) {
  xml << "    <testcase name=\"" << xml_escape(tc.name) << "\" classname=\"" << xml_escape(tc.classname)
      << "\" time=\"" << text::fixed3(tc.seconds) << "\">\n";
  if (!tc.properties.empty()) {
    xml << "      <properties>\n";
    for (const auto& [k, v] : tc.properties)
      xml << "        <property name=\"" << xml_escape(k) << "\" value=\"" << xml_escape(v) << "\"/>\n";
    xml << "      </properties>\n";
  }
  switch (tc.status) {
    case Testcase::Status::Pass: break;
    case Testcase::Status::Skipped: xml << "      <skipped message=\"" << xml_escape(tc.message) << "\"/>\n"; break;
    case Testcase::Status::Failure:
    case Testcase::Status::Error: {
      const char* tag = tc.status == Testcase::Status::Error ? "error" : "failure";
      xml << "      <" << tag << " message=\"" << xml_escape(tc.message) << "\" type=\"" << xml_escape(tc.type)
          << "\">" << xml_escape(tc.failure_text) << "</" << tag << ">\n";
      break;
    }
  }
  if (!tc.system_out.empty()) xml << "      <system-out>" << xml_escape(tc.system_out) << "</system-out>\n";
  if (!tc.system_err.empty()) xml << "      <system-err>" << xml_escape(tc.system_err) << "</system-err>\n";
  xml << "    </testcase>\n";
}

}  // namespace

std::string JunitReporter::render(const ReportData& data) const {
  std::map<std::string, std::vector<const detectors::Finding*>> findings_by_run;
  for (const auto& f : data.findings)
    if (!f.run_id.empty()) findings_by_run[f.run_id].push_back(&f);
  const auto bug_list = report_bugs(data);
  std::map<const detectors::Finding*, std::string> bug_of;
  for (const auto& b : bug_list) {
    for (const auto& o : b.occurrences) bug_of[&data.findings[o.finding]] = b.fingerprint;
    for (std::size_t i : b.related) bug_of[&data.findings[i]] = b.fingerprint;
  }
  std::map<std::string, const RunRecord*> run_by_id;
  for (const auto& r : data.runs) run_by_id[r.spec.run_id] = &r;

  const std::string campaign = classname_part(data.campaign);
  // Points in the order of their first run.
  std::vector<std::pair<std::string, std::vector<const RunRecord*>>> points;
  std::map<std::string, std::size_t> point_index;
  for (const auto& r : data.runs) {
    auto [it, fresh] = point_index.emplace(point_name(r.spec), points.size());
    if (fresh) points.push_back({it->first, {}});
    points[it->second].second.push_back(&r);
  }
  std::vector<Suite> suites;
  Suite point_suite{data.campaign + ".points", {}};
  for (const auto& [name, runs] : points)
    point_suite.cases.push_back(point_testcase(data, campaign + ".np" + std::to_string(runs.front()->spec.nprocs),
                                               name, runs, findings_by_run, bug_of));
  if (!point_suite.cases.empty()) suites.push_back(std::move(point_suite));
  Suite bug_suite{data.campaign + ".bugs", {}};
  for (const auto& b : bug_list) bug_suite.cases.push_back(bug_testcase(data, campaign + ".bugs", b, run_by_id));
  if (!bug_suite.cases.empty()) suites.push_back(std::move(bug_suite));

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
  return xml.str();
}

}  // namespace scalefuzz::harness
