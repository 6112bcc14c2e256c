#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/finding_json.hpp"
#include "scalefuzz/harness/report.hpp"
#include "scalefuzz/harness/run_json.hpp"

namespace scalefuzz::harness {

using nlohmann::json;

std::filesystem::path JsonReporter::output_path(const ReportData& data) const {
  return file_.empty() ? data.out_dir / "findings.json" : file_;
}

namespace {

json run_summary(const RunRecord& r) {
  json j = {{"run_id", r.spec.run_id},
            {"nprocs", r.spec.nprocs},
            {"scale_role", r.spec.scale_role},
            {"noise", r.spec.noise.label()},
            {"params", r.spec.params},
            {"repetition", r.spec.repetition},
            {"seed", std::to_string(r.spec.seed)},  // a string: jq and JavaScript round 64-bit numbers
            {"dir", r.dir.string()},
            {"outcome", outcome_label(r)},
            {"started_at", r.started_at},
            {"finished_at", r.finished_at}};
  if (r.outcome) {
    j["detail"] = r.outcome->detail;
    j["exit_code"] = r.outcome->exit_code;
    j["signal"] = r.outcome->signal;
    j["wall_seconds"] = r.outcome->wall_seconds;
    // Full stacks live in the run's outcome.json; list whose were captured.
    json stack_ranks = json::array();
    for (const auto& s : r.outcome->stacks) stack_ranks.push_back(s.rank);
    j["stack_ranks"] = std::move(stack_ranks);
  }
  return j;
}

}  // namespace

std::string JsonReporter::render(const ReportData& data) const {
  const auto summary = summarize(data);
  json runs = json::array();
  for (const auto& r : data.runs) runs.push_back(run_summary(r));
  const auto bug_list = report_bugs(data);
  std::vector<std::string> fingerprint_of(data.findings.size());
  json bugs = json::array();
  std::size_t serious_bugs = 0;
  for (const auto& b : bug_list) {
    for (const auto& o : b.occurrences) fingerprint_of[o.finding] = b.fingerprint;
    for (std::size_t i : b.related) fingerprint_of[i] = b.fingerprint;
    serious_bugs += b.serious();
    bugs.push_back(bugs::bug_to_json(b));
  }
  json findings = json::array();
  for (std::size_t i = 0; i < data.findings.size(); ++i) {
    json f = finding_to_json(data.findings[i]);
    // A campaign-wide finding is about no run: it says so instead of an empty run id.
    if (data.findings[i].run_id.empty()) {
      f.erase("run_id");
      f["scope"] = "campaign";
    } else {
      f["scope"] = "run";
    }
    f["fingerprint"] = fingerprint_of[i];
    findings.push_back(std::move(f));
  }
  const json doc = {{"format", "scalefuzz-findings"},
                    {"format_version", kFindingsFormatVersion},
                    {"campaign", data.campaign},
                    {"out_dir", data.out_dir.string()},
                    {"command_line", data.command_line},
                    {"started_at", data.started_at},
                    {"finished_at", data.finished_at},
                    {"generated_at", data.generated_at.empty() ? utc_timestamp_now() : data.generated_at},
                    {"verdict", summary.verdict},
                    {"summary",
                     {{"runs", summary.runs},
                      {"finished", summary.finished},
                      {"unfinished", summary.unfinished},
                      {"failed_runs", summary.failed_runs},
                      {"by_outcome", summary.by_outcome},
                      {"findings", summary.findings},
                      {"serious_findings", summary.serious_findings},
                      {"findings_by_detector", summary.findings_by_detector},
                      {"bugs", bug_list.size()},
                      {"serious_bugs", serious_bugs}}},
                    {"runs", std::move(runs)},
                    {"findings", std::move(findings)},
                    {"bugs", std::move(bugs)}};
  return dump_json(doc) + "\n";
}

}  // namespace scalefuzz::harness
