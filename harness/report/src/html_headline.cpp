#include "html_headline.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "text.hpp"

namespace scalefuzz::harness::html {

namespace {

using detectors::Finding;
using detectors::Severity;

std::string esc(std::string_view s) { return text::xml_escape(s); }

int severity_rank(Severity s) { return s == Severity::Error ? 2 : s == Severity::Warning ? 1 : 0; }

// Localizing detectors say where; the generic outcome only says that.
bool localizes(const Finding& f) { return f.detector != "outcome"; }

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
  static const std::map<std::string, std::string> kLabels = {
      {"unintended-match", "message race"},
      {"scale-anomaly", "scale anomaly"},
      {"lp-task", "least-progressed task"},
      {"deadlock", "deadlock"},
      {"calculation-fault", "calculation fault"},
      {"non-occurred-event", "event that never occurred"},
      {"buffer-overflow", "buffer overflow"},
      {"crashed", "crash"},
      {"hang", "hang"},
  };
  if (auto it = kLabels.find(f.kind); it != kLabels.end()) return it->second;
  std::string out = f.kind;
  std::replace(out.begin(), out.end(), '-', ' ');
  return out;
}

std::vector<Bug> group_into_bugs(const ReportData& data) {
  std::map<std::string, const RunRecord*> run_of;
  for (const auto& r : data.runs) run_of[r.spec.run_id] = &r;
  std::set<std::string> localized_runs;
  for (const auto& f : data.findings)
    if (localizes(f) && f.severity != Severity::Info && !f.run_id.empty()) localized_runs.insert(f.run_id);

  std::vector<Bug> bugs;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> bug_of_key;
  std::vector<const Finding*> folded;  // outcome findings of localized runs
  for (const auto& f : data.findings) {
    if (f.severity == Severity::Info) continue;
    if (!localizes(f) && localized_runs.count(f.run_id)) {
      folded.push_back(&f);
      continue;
    }
    // MPI-PD and the PDG localizing the same hang to the same code are one
    // bug seen twice; other detectors' findings group by their own kind.
    const bool hang_localizer = f.detector == "mpipd" || f.detector == "pdg";
    const auto key = std::make_tuple(hang_localizer ? std::string("hang-localization") : f.detector,
                                     hang_localizer ? std::string() : f.kind, f.location);
    auto [it, fresh] = bug_of_key.emplace(key, bugs.size());
    if (fresh) {
      Bug b;
      b.what = bug_kind_label(f);
      b.detector = f.detector;
      b.kind = f.kind;
      b.location = f.location;
      b.severity = f.severity;
      bugs.push_back(std::move(b));
    }
    Bug& b = bugs[it->second];
    b.findings.push_back(&f);
    if (std::find(b.detectors.begin(), b.detectors.end(), f.detector) == b.detectors.end())
      b.detectors.push_back(f.detector);
    if (severity_rank(f.severity) > severity_rank(b.severity)) b.severity = f.severity;
    b.ranks.insert(f.ranks.begin(), f.ranks.end());
    if (!f.run_id.empty() && std::find(b.runs.begin(), b.runs.end(), f.run_id) == b.runs.end()) {
      b.runs.push_back(f.run_id);
      if (auto r = run_of.find(f.run_id); r != run_of.end()) b.noises.insert(r->second->spec.noise.label());
    }
  }
  // The generic outcome of a localized run joins the first bug of that run.
  for (const Finding* f : folded)
    for (auto& b : bugs)
      if (std::find(b.runs.begin(), b.runs.end(), f->run_id) != b.runs.end()) {
        b.findings.push_back(f);
        break;
      }
  std::stable_sort(bugs.begin(), bugs.end(), [](const Bug& a, const Bug& b) {
    if (severity_rank(a.severity) != severity_rank(b.severity))
      return severity_rank(a.severity) > severity_rank(b.severity);
    // A message race explains the hang it causes, a localized hang says more
    // than the bare outcome.
    const auto order = [](const std::string& d) { return d == "races" ? 0 : d == "outcome" ? 3 : d == "mpipd" || d == "pdg" ? 1 : 2; };
    if (order(a.detector) != order(b.detector)) return order(a.detector) < order(b.detector);
    return a.runs.size() > b.runs.size();
  });
  return bugs;
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

std::string headline_section(const ReportData& data, const std::vector<Bug>& bugs) {
  std::map<std::string, const RunRecord*> run_of;
  for (const auto& r : data.runs) run_of[r.spec.run_id] = &r;
  std::ostringstream out;
  out << "<section id=\"bugs\"><h2>Bugs (" << bugs.size() << ")</h2>\n";
  if (bugs.empty()) {
    std::size_t info = 0;
    for (const auto& f : data.findings) info += f.severity == Severity::Info;
    out << "<p class=\"none\">No bug found";
    if (info) out << " (" << info << " informational finding" << (info == 1 ? "" : "s") << " below)";
    out << ".</p>\n</section>\n";
    return out.str();
  }
  out << "<ol class=\"bugs\">\n";
  std::size_t n = 0;
  for (const auto& b : bugs) {
    ++n;
    const Finding& f = *b.findings.front();
    const auto finding_id = "finding-" + std::to_string(index_of(data, &f) + 1);
    const auto [function, file_line] = split_location(b.location);
    out << "<li class=\"bug sev-" << detectors::to_string(b.severity) << "\" id=\"bug-" << n << "\" data-kind=\""
        << esc(b.kind) << "\" data-detector=\"" << esc(b.detector) << "\">\n<div class=\"bug-line\">"
        << "<span class=\"sev\">" << detectors::to_string(b.severity) << "</span><b class=\"what\">" << esc(b.what)
        << "</b>";
    if (!b.location.empty()) {
      out << " at <a class=\"where\" href=\"#" << finding_id << "-source\">";
      if (!function.empty()) out << "<code class=\"function\">" << esc(function) << "</code> ";
      out << "<code class=\"file-line\" title=\"" << esc(file_line) << "\">" << esc(base_name(file_line))
          << "</code></a>";
    }
    out << "</div>\n<div class=\"bug-facts\">";
    if (!b.ranks.empty())
      out << "<span class=\"ranks\">ranks <b>" << esc(detectors::rank_ranges({b.ranks.begin(), b.ranks.end()}))
          << "</b></span>";
    if (!b.runs.empty()) {
      out << "<span class=\"runs\"><b>" << b.runs.size() << "</b> of " << data.runs.size() << " run"
          << (data.runs.size() == 1 ? "" : "s") << "</span>";
    } else {
      out << "<span class=\"runs\">campaign-wide</span>";
    }
    if (!b.noises.empty()) {
      std::string noises;
      for (const auto& x : b.noises) noises += (noises.empty() ? "" : ", ") + x;
      out << "<span class=\"noise\">noise <b>" << esc(noises) << "</b></span>";
    }
    std::string by;
    for (const auto& d : b.detectors) by += (by.empty() ? "" : " + ") + d;
    out << "<span class=\"by\">found by <b>" << esc(by) << "</b></span></div>\n"
        << "<div class=\"bug-title\">" << esc(f.title) << " <a href=\"#" << finding_id << "\">details</a></div>\n";
    if (!b.runs.empty()) {
      auto r = run_of.find(b.runs.front());
      if (r != run_of.end()) {
        out << "<div class=\"bug-run\">first run <a href=\"#run-" << esc(r->first) << "\"><code>" << esc(r->first)
            << "</code></a> " << run_file_links(data, *r->second) << "</div>\n"
            << replay_block(replay_command(*r->second)) << "\n";
      }
    }
    out << "</li>\n";
  }
  out << "</ol>\n</section>\n";
  return out.str();
}

}  // namespace scalefuzz::harness::html
