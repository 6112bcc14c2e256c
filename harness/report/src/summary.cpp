#include <cctype>
#include <fstream>
#include <string_view>
#include <set>

#include "scalefuzz/analysis/registry.hpp"
#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/report.hpp"
#include "scalefuzz/harness/terminal_text.hpp"
#include "scalefuzz/trace/decision_log.hpp"

namespace scalefuzz::harness {

std::string outcome_label(const RunRecord& run) {
  return run.outcome ? to_string(run.outcome->kind) : "unfinished";
}

ReportSummary summarize(const ReportData& data) {
  ReportSummary s;
  s.runs = data.runs.size();
  std::map<std::string, std::vector<const detectors::Finding*>> by_run;
  for (const auto& f : data.findings)
    if (!f.run_id.empty()) by_run[f.run_id].push_back(&f);
  for (const auto& r : data.runs) {
    ++s.by_outcome[outcome_label(r)];
    if (!r.finished()) {
      ++s.unfinished;
      continue;
    }
    ++s.finished;
    if (r.outcome->kind == OutcomeKind::Ok) continue;
    if (outcome_expected(by_run[r.spec.run_id])) ++s.expected_by_outcome[outcome_label(r)];
    else ++s.failed_runs;
  }
  s.findings = data.findings.size();
  for (const auto& f : data.findings) {
    ++s.findings_by_detector[f.detector];
    if (f.severity != detectors::Severity::Info) ++s.serious_findings;
  }
  if (s.serious_findings > 0 || s.failed_runs > 0) s.verdict = "findings";
  else if (s.unfinished > 0) s.verdict = "incomplete";
  else s.verdict = "clean";
  return s;
}

bool outcome_expected(const std::vector<const detectors::Finding*>& run_findings) {
  for (const auto* f : run_findings)
    if (f->detector == "outcome" && f->severity == detectors::Severity::Info) return true;
  return false;
}

std::vector<bugs::Bug> report_bugs(const ReportData& data) {
  std::vector<bugs::RunInfo> runs;
  runs.reserve(data.runs.size());
  for (const auto& r : data.runs)
    runs.push_back({r.spec.run_id, r.spec.nprocs, r.spec.noise.label(), std::to_string(r.spec.seed), r.finished_at});
  return bugs::group_findings(data.findings, runs, analysis::bug_roles(), data.finished_at);
}

std::string shell_quote(const std::string& word) {
  bool safe = !word.empty();
  bool control = false;  // a byte a terminal would act on, or one that is not UTF-8
  for (std::size_t i = 0; i < word.size();) {
    const auto c = static_cast<unsigned char>(word[i]);
    if (c >= 0x80) {
      const std::size_t n = printable_utf8_length(word, i);
      control = control || n == 0;
      safe = false;
      i += n == 0 ? 1 : n;
      continue;
    }
    if (c < 0x20 || c == 0x7F) control = true;
    if (!(std::isalnum(c) || std::string_view("@%+=:,./_-{}").find(static_cast<char>(c)) != std::string_view::npos))
      safe = false;
    ++i;
  }
  if (safe) return word;
  if (control) {
    // bash's $'...': the escapes are printable, so the line survives being
    // shown (terminal, HTML, XML) and a shell turns them back into the bytes.
    static const char* const hex = "0123456789abcdef";
    std::string out = "$'";
    for (std::size_t i = 0; i < word.size();) {
      const auto c = static_cast<unsigned char>(word[i]);
      const std::size_t n = c >= 0x80 ? printable_utf8_length(word, i) : 0;
      if (n > 0) {
        out.append(word, i, n);
        i += n;
        continue;
      }
      if (c == '\\' || c == '\'') out += std::string("\\") + static_cast<char>(c);
      else if (c < 0x20 || c >= 0x7F) out += std::string("\\x") + hex[c >> 4] + hex[c & 0xF];
      else out += static_cast<char>(c);
      ++i;
    }
    return out + "'";
  }
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string replay_command(const ReportData& data, const RunRecord& run) {
  // The first line `run` and `reproduce` left in replay.txt: the exact replay
  // (scalefuzz replay, issue 29) when the run has a decision log, else the
  // seed-and-noise line, which carries what the run needs (an
  // application-centric run's system run) and works for a reproduce try.
  std::ifstream in(run.dir / "replay.txt");
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line.front() != '#') return line;
  // Without it (a store from an older scalefuzz, a SLURM task): the same order.
  std::error_code ec;
  if (!run.dir.empty() && std::filesystem::exists(trace::decision_log_file(run.dir, 0), ec))
    return "scalefuzz replay " + shell_quote(std::filesystem::absolute(run.dir).string());
  const std::string campaign = data.campaign_file.empty() ? "CAMPAIGN.yaml" : data.campaign_file;
  return "scalefuzz run " + shell_quote(campaign) + " --filter " + shell_quote("id=" + run.spec.run_id) +
         " --out " + shell_quote((data.out_dir / "replay" / run.spec.run_id).string());
}

ReportData report_data_from_store(const RunStore& store) {
  ReportData d;
  d.campaign = store.campaign_name();
  d.out_dir = store.out_dir();
  d.runs = store.runs();
  d.findings = store.load_findings();
  d.command_line = store.meta("command_line").value_or("");
  d.campaign_file = store.meta("campaign_file").value_or("");
  d.started_at = store.meta("started_at").value_or("");
  d.finished_at = store.meta("finished_at").value_or("");
  d.generated_at = utc_timestamp_now();
  return d;
}

std::vector<std::unique_ptr<Reporter>> default_reporters() {
  std::vector<std::unique_ptr<Reporter>> out;
  out.push_back(std::make_unique<JsonReporter>());
  out.push_back(std::make_unique<JunitReporter>());
  out.push_back(std::make_unique<HtmlReporter>());
  return out;
}

}  // namespace scalefuzz::harness
