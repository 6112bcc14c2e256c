#include "html_headline.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "html_sections.hpp"
#include "text.hpp"

namespace scalefuzz::harness::html {

namespace {

using detectors::Finding;
using detectors::Severity;

using text::esc;

std::size_t index_of(const ReportData& data, const Finding* f) {
  return static_cast<std::size_t>(f - data.findings.data());
}

std::string base_name(const std::string& file_line) {
  const auto slash = file_line.rfind('/');
  return slash == std::string::npos ? file_line : file_line.substr(slash + 1);
}

// "func (file:line)" -> {"func", "file:line"}; anything else -> {"", location}.
std::pair<std::string, std::string> split_location(const std::string& location) {
  const auto open = location.rfind(" (");
  if (open == std::string::npos || location.empty() || location.back() != ')') return {"", location};
  return {location.substr(0, open), location.substr(open + 2, location.size() - open - 3)};
}

}  // namespace

std::string bug_kind_label(const Finding& f) {
  // The harness's own findings (detector "outcome": how a run ended).
  static const std::map<std::string, std::string> kOutcomeLabels = {{"crashed", "crash"}, {"hang", "hang"}};
  if (auto label = technique_kind_label(f); !label.empty()) return label;  // the technique's registration
  if (auto it = kOutcomeLabels.find(f.kind); it != kOutcomeLabels.end()) return it->second;
  std::string out = f.kind;
  std::replace(out.begin(), out.end(), '-', ' ');
  return out;
}

const Finding& representative(const ReportData& data, const bugs::Bug& bug) {
  // A failed run's bug is shown by what localized it; a race's related
  // findings are its consequences (the hang it caused), not its face.
  if (bug.key.detector == "outcome" && !bug.related.empty()) return data.findings.at(bug.related.front());
  return data.findings.at(bug.occurrences.front().finding);
}

std::string replay_command(const RunRecord& run) {
  std::ifstream in(run.dir / "replay.txt");
  if (!in) return {};
  std::string line, text;
  while (std::getline(in, line)) text += (text.empty() ? "" : "\n") + line;
  return text;
}

std::string replay_block(const std::string& command) {
  if (command.empty()) return {};
  return "<div class=\"replay\"><code class=\"replay-cmd\">" + esc(command) +
         "</code><button type=\"button\" class=\"copy\" title=\"copy the replay command\">copy</button></div>";
}

std::string run_file_links(const ReportData& data, const RunRecord& run) {
  static const char* kFiles[] = {"spec.json", "outcome.json", "stdout.txt", "stderr.txt", "replay.txt", "ranks", "stacks"};
  std::error_code ec;
  auto rel = std::filesystem::relative(run.dir, data.out_dir, ec);
  if (ec || rel.empty() || *rel.begin() == "..") rel = run.dir;  // not under OUT: link it absolutely
  std::string out = "<span class=\"run-files\">";
  for (const char* name : kFiles) {
    if (!std::filesystem::exists(run.dir / name, ec)) continue;
    const bool dir = std::filesystem::is_directory(run.dir / name, ec);
    out += "<a class=\"run-file\" href=\"" + esc((rel / name).generic_string()) + (dir ? "/" : "") + "\">" + name +
           (dir ? "/" : "") + "</a>";
  }
  return out + "</span>";
}

std::string headline_section(const ReportData& data, const std::vector<bugs::Bug>& all_bugs) {
  std::map<std::string, const RunRecord*> run_of;
  for (const auto& r : data.runs) run_of[r.spec.run_id] = &r;
  std::vector<const bugs::Bug*> serious;
  for (const auto& b : all_bugs)
    if (b.serious()) serious.push_back(&b);
  std::ostringstream out;
  out << "<section id=\"bugs\"><h2>Bugs (" << serious.size() << ")</h2>\n";
  if (serious.empty()) {
    std::size_t info = 0;
    for (const auto& f : data.findings) info += f.severity == Severity::Info;
    out << "<p class=\"none\">No bug found";
    if (info) out << " (" << info << " informational finding" << (info == 1 ? "" : "s") << " below)";
    out << ".</p>\n</section>\n";
    return out.str();
  }
  out << "<ol class=\"bugs\">\n";
  std::size_t n = 0;
  for (const bugs::Bug* bug : serious) {
    const bugs::Bug& b = *bug;
    ++n;
    const Finding& f = representative(data, b);
    // Every finding of the bug: its occurrences, then the localizers' evidence.
    std::vector<std::size_t> members;
    for (const auto& o : b.occurrences) members.push_back(o.finding);
    members.insert(members.end(), b.related.begin(), b.related.end());
    std::string location = f.location, by;
    std::set<int> ranks;
    std::vector<std::string> detectors;
    for (std::size_t i : members) {
      const Finding& m = data.findings.at(i);
      if (location.empty()) location = m.location;
      ranks.insert(m.ranks.begin(), m.ranks.end());
      if (std::find(detectors.begin(), detectors.end(), m.detector) == detectors.end()) detectors.push_back(m.detector);
    }
    for (const auto& d : detectors) by += (by.empty() ? "" : " + ") + d;
    const auto finding_id = "finding-" + std::to_string(index_of(data, &f) + 1);
    const auto [function, file_line] = split_location(location);
    out << "<li class=\"bug sev-" << detectors::to_string(b.severity) << "\" id=\"bug-" << n << "\" data-kind=\""
        << esc(f.kind) << "\" data-detector=\"" << esc(f.detector) << "\" data-fingerprint=\"" << esc(b.fingerprint)
        << "\">\n<div class=\"bug-line\"><span class=\"sev\">" << detectors::to_string(b.severity)
        << "</span><b class=\"what\">" << esc(bug_kind_label(f)) << "</b>";
    if (!location.empty()) {
      out << " at <a class=\"where\" href=\"#" << finding_id << "-source\">";
      if (!function.empty()) out << "<code class=\"function\">" << esc(function) << "</code> ";
      out << "<code class=\"file-line\" title=\"" << esc(file_line) << "\">" << esc(base_name(file_line))
          << "</code></a>";
    }
    out << "</div>\n<div class=\"bug-facts\">";
    if (!ranks.empty())
      out << "<span class=\"ranks\">ranks <b>" << esc(detectors::rank_ranges({ranks.begin(), ranks.end()}))
          << "</b></span>";
    const auto runs = b.runs();
    if (!runs.empty()) {
      out << "<span class=\"runs\"><b>" << runs.size() << "</b> of " << data.runs.size() << " run"
          << (data.runs.size() == 1 ? "" : "s") << "</span>";
    } else {
      out << "<span class=\"runs\">campaign-wide</span>";
    }
    if (const auto noises = b.noise(); !noises.empty()) {
      std::string text;
      for (const auto& x : noises) text += (text.empty() ? "" : ", ") + x;
      out << "<span class=\"noise\">noise <b>" << esc(text) << "</b></span>";
    }
    out << "<span class=\"by\">found by <b>" << esc(by) << "</b></span></div>\n"
        << "<div class=\"bug-title\">" << esc(f.title) << " <a href=\"#" << finding_id << "\">details</a></div>\n";
    const auto first = std::find_if(b.occurrences.begin(), b.occurrences.end(),
                                    [](const bugs::Occurrence& o) { return !o.run_id.empty(); });
    if (first != b.occurrences.end())
      if (auto r = run_of.find(first->run_id); r != run_of.end())
        out << "<div class=\"bug-run\">first run <a href=\"#run-" << esc(r->first) << "\"><code>" << esc(r->first)
            << "</code></a> " << run_file_links(data, *r->second) << "</div>\n"
            << replay_block(replay_command(*r->second)) << "\n";
    out << "</li>\n";
  }
  out << "</ol>\n</section>\n";
  return out.str();
}

}  // namespace scalefuzz::harness::html
