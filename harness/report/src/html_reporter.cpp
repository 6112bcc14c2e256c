#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "graphviz.hpp"
#include "html_charts.hpp"
#include "html_headline.hpp"
#include "html_sections.hpp"
#include "html_trend.hpp"
#include "html_style.hpp"
#include "scalefuzz/harness/atomic_file.hpp"
#include "scalefuzz/harness/report.hpp"
#include "scalefuzz/harness/run_json.hpp"
#include "text.hpp"

namespace scalefuzz::harness {

using nlohmann::json;

namespace {

using text::esc;

std::string css_token(std::string_view label) {
  std::string out;
  for (char c : label) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  return out;
}

std::string pill(const std::string& label, const std::string& content) {
  return "<span class=\"pill o-" + css_token(label) + "\">" + esc(content) + "</span>";
}

// Outcome label -> count, ordered by how bad the outcome is (worst first).
using Counts = std::map<std::string, std::size_t>;

std::vector<std::pair<std::string, std::size_t>> worst_first(const Counts& counts) {
  std::vector<std::pair<std::string, std::size_t>> v(counts.begin(), counts.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
    return html::outcome_style(a.first).badness > html::outcome_style(b.first).badness;
  });
  return v;
}

// A stacked bar of the outcome counts, as inline SVG.
std::string outcome_bar(const Counts& counts) {
  std::size_t total = 0;
  for (const auto& [_, n] : counts) total += n;
  if (total == 0) return {};
  std::string svg = "<svg class=\"bar\" viewBox=\"0 0 100 8\" preserveAspectRatio=\"none\" role=\"img\">";
  double x = 0;
  auto ordered = worst_first(counts);
  std::reverse(ordered.begin(), ordered.end());  // benign on the left
  for (const auto& [label, n] : ordered) {
    const double w = 100.0 * static_cast<double>(n) / static_cast<double>(total);
    svg += "<rect x=\"" + text::fixed3(x) + "\" y=\"0\" width=\"" + text::fixed3(w) + "\" height=\"8\" fill=\"" +
           std::string(html::outcome_style(label).fg) + "\"><title>" + std::to_string(n) + " " + esc(label) +
           "</title></rect>";
    x += w;
  }
  return svg + "</svg>";
}

std::string outcome_css() {
  std::string css;
  for (auto* s = html::outcome_styles_begin(); s != html::outcome_styles_end(); ++s) {
    const std::string t = css_token(s->label), fg(s->fg), bg(s->bg);
    css += ".o-" + t + " { color: " + fg + "; background: " + bg + "; }\n";
    css += "td.w-" + t + " { background: " + bg + "; }\n";
    css += ".counts li.o-" + t + " { border-left-color: " + fg + "; background: #fff; color: #1d2125; }\n";
    const auto& e = html::outcome_style(std::string(s->label) + " (expected)");
    const std::string et = css_token(std::string(s->label) + " (expected)");
    css += ".o-" + et + " { color: " + std::string(e.fg) + "; background: " + std::string(e.bg) + "; }\n";
    css += "td.w-" + et + " { background: " + std::string(e.bg) + "; }\n";
  }
  return css;
}

// Numbers for reading: integers as they are, others to 4 significant digits.
json rounded(const json& value) {
  if (value.is_number_float()) {
    const double v = value.get<double>();
    if (!std::isfinite(v) || v == 0.0) return value;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return json(std::strtod(buf, nullptr));
  }
  if (value.is_array() || value.is_object()) {
    json out = value;
    for (auto& item : out) item = rounded(item);
    return out;
  }
  return value;
}

class HtmlWriter {
 public:
  HtmlWriter(const ReportData& data, const HtmlOptions& options) : d_(data), opt_(options) {
    for (std::size_t i = 0; i < d_.findings.size(); ++i)
      if (!d_.findings[i].run_id.empty()) findings_of_run_[d_.findings[i].run_id].push_back(i);
    for (const auto& r : d_.runs) known_runs_.insert(r.spec.run_id);
    bugs_ = report_bugs(d_);
    sections_ = html::sections_for(d_);
    for (const auto& b : bugs_) serious_bugs_ += b.serious();
    for (const auto& [run_id, indices] : findings_of_run_) {
      std::vector<const detectors::Finding*> fs;
      for (auto i : indices) fs.push_back(&d_.findings[i]);
      if (outcome_expected(fs)) expected_runs_.insert(run_id);
    }
  }

  // The outcome as the matrix and the runs table show it: a failure the
  // campaign caused on purpose reads "hang (expected)".
  std::string display_label(const RunRecord& r) const {
    const auto label = outcome_label(r);
    return label != "ok" && r.finished() && expected_runs_.count(r.spec.run_id) ? label + " (expected)" : label;
  }

  std::string render() {
    const auto summary = summarize(d_);
    out_ << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         << "<title>scalefuzz: " << esc(d_.campaign) << "</title>\n<style>" << html::kStyleSheet << outcome_css() << html::technique_css()
         << "</style>\n</head>\n<body>\n";
    header(summary);
    out_ << "<main>\n" << html::headline_section(d_, bugs_);
    out_ << html::trend_section(d_);  // html_trend.cpp: ci/nightly.sh's trend.json and diff.json
    matrix();
    findings();
    for (const auto* section : sections_)  // the techniques' own (html_sections.cpp)
      out_ << html::draw(*section, d_, [this](const std::string& dot) { return dot_svg(dot); });
    runs();
    charts_drawn_ = charts_drawn_ || out_.str().find("class=\"chart-config\"") != std::string::npos;
    out_ << "</main>\n" << html::page_scripts(charts_drawn_ ? html::load_chartjs(opt_.chartjs) : "")
         << "</body>\n</html>\n";
    return out_.str();
  }

 private:
  void header(const ReportSummary& s) {
    std::string verdict_text;
    std::size_t expected = 0;
    for (const auto& [_, n] : s.expected_by_outcome) expected += n;
    if (s.verdict == "clean" && expected > 0)
      verdict_text = "no bugs: every run ended as expected (" + std::to_string(expected) + " expected " +
                     (expected == 1 ? "failure" : "failures") + ", e.g. injected stalls)";
    else if (s.verdict == "clean")
      verdict_text = s.findings == 0 ? "no findings, every run ok"
                                     : "every run ok, " + std::to_string(s.findings) + " informational findings";
    else if (s.verdict == "incomplete") verdict_text = std::to_string(s.unfinished) + " runs did not finish";
    else
      verdict_text = std::to_string(serious_bugs_) + " bug" + (serious_bugs_ == 1 ? "" : "s") + " from " +
                     std::to_string(s.serious_findings) + " finding" + (s.serious_findings == 1 ? "" : "s") +
                     " (errors or warnings), " + std::to_string(s.failed_runs) + " run" +
                     (s.failed_runs == 1 ? "" : "s") + " failed unexpectedly";
    std::string banner = s.verdict == "clean" ? "PASS" : s.verdict == "findings" ? "FAIL" : "INCOMPLETE";
    std::string job;
    // A night compared with the nights before: the job's verdict (its
    // --fail-on) is the banner's, the findings stay listed below.
    if (const auto v = html::job_verdict(d_); v && s.verdict != "incomplete") {
      banner = v->fails ? "FAIL" : "PASS";
      job = v->fails ? "fail" : "pass";
      verdict_text = "the job " + std::string(v->fails ? "fails" : "passes") + " with --fail-on " + v->fail_on +
                     " (" + std::to_string(v->new_bugs) + " new, " + std::to_string(v->still_there) +
                     " still there); " + verdict_text;
    }
    const std::string shown = job.empty() ? s.verdict : (job == "pass" ? "clean" : "findings");
    out_ << "<header class=\"top v-" << css_token(shown) << "\" id=\"top\"><div class=\"inner\">\n"
         << "<h1>scalefuzz report: " << esc(d_.campaign) << "</h1>\n"
         << "<div class=\"verdict\" id=\"verdict\" data-verdict=\"" << esc(s.verdict) << "\""
         << (job.empty() ? std::string() : " data-job=\"" + job + "\"") << "><b>" << esc(banner) << "</b> "
         << esc(verdict_text) << "</div>\n<ul class=\"counts\" id=\"counts\">\n"
         << "<li data-count=\"runs\"><b>" << s.runs << "</b>runs</li>\n";
    for (const auto& [label, n] : worst_first(s.by_outcome)) {
      const auto e = s.expected_by_outcome.find(label);
      const std::size_t expected_n = e == s.expected_by_outcome.end() ? 0 : e->second;
      if (expected_n > 0)  // expected failures are not counted as failures
        out_ << "<li class=\"expected\" data-count=\"" << esc(label) << "-expected\"><b>" << expected_n
             << "</b>" << esc(label) << " (expected)</li>\n";
      if (n > expected_n)
        out_ << "<li class=\"o-" << css_token(label) << "\" data-count=\"" << esc(label) << "\"><b>"
             << n - expected_n << "</b>" << esc(label) << "</li>\n";
    }
    out_ << "<li data-count=\"findings\"><b>" << s.findings << "</b>findings</li>\n</ul>\n<dl class=\"meta\">\n";
    auto meta = [&](const char* name, const std::string& value) {
      if (!value.empty()) out_ << "<dt>" << name << "</dt><dd>" << esc(value) << "</dd>\n";
    };
    meta("command", d_.command_line);
    meta("output", d_.out_dir.string());
    meta("started", d_.started_at);
    meta("finished", d_.finished_at);
    meta("generated", d_.generated_at.empty() ? utc_timestamp_now() : d_.generated_at);
    out_ << "</dl>\n<nav class=\"toc\"><a href=\"#bugs\">Bugs</a><a href=\"#summary\">Summary</a>"
         << "<a href=\"#findings\">Findings</a>";
    for (const auto* section : sections_) out_ << "<a href=\"#" << section->id << "\">" << section->nav << "</a>";
    out_ << "<a href=\"#runs\">Runs</a></nav>\n</div></header>\n";
  }

  void matrix() {
    std::set<int> scales;
    std::vector<std::string> noises;
    std::map<int, std::set<std::string>> roles;
    std::map<std::pair<int, std::string>, Counts> cells;
    std::map<int, Counts> row_totals;
    std::map<std::string, Counts> col_totals;
    Counts all;
    for (const auto& r : d_.runs) {
      const auto noise = r.spec.noise.label();
      if (std::find(noises.begin(), noises.end(), noise) == noises.end()) noises.push_back(noise);
      scales.insert(r.spec.nprocs);
      if (!r.spec.scale_role.empty()) roles[r.spec.nprocs].insert(r.spec.scale_role);
      const auto label = display_label(r);
      ++cells[{r.spec.nprocs, noise}][label];
      ++row_totals[r.spec.nprocs][label];
      ++col_totals[noise][label];
      ++all[label];
    }
    // "none" first: the quiet baseline is what the other columns are read against.
    std::stable_partition(noises.begin(), noises.end(), [](const std::string& n) { return n == "none"; });

    out_ << "<section id=\"summary\"><h2>Runs by scale and noise</h2>\n";
    if (d_.runs.empty()) {
      out_ << "<p class=\"none\">No runs recorded.</p></section>\n";
      return;
    }
    out_ << "<table class=\"matrix\" id=\"summary-table\">\n<thead><tr><th>ranks \\ noise</th>";
    for (const auto& n : noises) out_ << "<th data-noise=\"" << esc(n) << "\">" << esc(n) << "</th>";
    const bool totals_column = noises.size() > 1, totals_row = scales.size() > 1;
    if (totals_column) out_ << "<th>all noise</th>";
    out_ << "</tr></thead>\n<tbody>\n";
    for (int scale : scales) {
      std::string role_text;
      for (const auto& role : roles[scale]) role_text += (role_text.empty() ? "" : ", ") + role;
      out_ << "<tr><th class=\"scale\" data-scale=\"" << scale << "\">" << scale << " ranks";
      if (!role_text.empty()) out_ << " <small>" << esc(role_text) << "</small>";
      out_ << "</th>";
      for (const auto& n : noises) {
        auto it = cells.find({scale, n});
        if (it == cells.end()) out_ << "<td class=\"cell empty\" data-scale=\"" << scale << "\" data-noise=\"" << esc(n) << "\"></td>";
        else cell(it->second, std::to_string(scale), n);
      }
      if (totals_column) cell(row_totals[scale], std::to_string(scale), "*");
      out_ << "</tr>\n";
    }
    if (totals_row) {
      out_ << "<tr><th class=\"scale\">all scales</th>";
      for (const auto& n : noises) cell(col_totals[n], "*", n);
      if (totals_column) cell(all, "*", "*");
      out_ << "</tr>\n";
    }
    out_ << "</tbody></table>\n<p class=\"legend\">Legend: ";
    for (auto* s = html::outcome_styles_begin(); s != html::outcome_styles_end(); ++s)
      out_ << pill(std::string(s->label), std::string(s->label));
    out_ << "</p>\n";
    outcome_chart();
    out_ << "</section>\n";
  }

  void cell(const Counts& counts, const std::string& scale, const std::string& noise) {
    const auto ordered = worst_first(counts);
    out_ << "<td class=\"cell w-" << css_token(ordered.front().first) << "\" data-scale=\"" << esc(scale)
         << "\" data-noise=\"" << esc(noise) << "\"";
    for (const auto& [label, n] : ordered) out_ << " data-" << css_token(label) << "=\"" << n << "\"";
    out_ << ">";
    for (const auto& [label, n] : ordered) out_ << pill(label, std::to_string(n) + " " + label);
    out_ << outcome_bar(counts) << "</td>";
  }

  void findings() {
    out_ << "<section id=\"findings\"><h2>Findings (" << d_.findings.size() << ")</h2>\n";
    if (d_.findings.empty()) out_ << "<p class=\"none\">No detector reported anything.</p>\n";
    std::vector<std::string> detectors;
    for (const auto& f : d_.findings)
      if (std::find(detectors.begin(), detectors.end(), f.detector) == detectors.end()) detectors.push_back(f.detector);
    for (const auto& det : detectors) {
      std::size_t n = 0;
      for (const auto& f : d_.findings) n += f.detector == det;
      out_ << "<h3 id=\"detector-" << esc(css_token(det)) << "\">" << esc(det) << "<span class=\"count\">" << n
           << "</span></h3>\n";
      for (std::size_t i = 0; i < d_.findings.size(); ++i)
        if (d_.findings[i].detector == det) finding(i);
    }
    out_ << "</section>\n";
  }

  void finding(std::size_t index) {
    const auto& f = d_.findings[index];
    const std::string sev = detectors::to_string(f.severity);
    out_ << "<article class=\"finding sev-" << sev << "\" id=\"finding-" << index + 1 << "\" data-detector=\""
         << esc(f.detector) << "\">\n<h4><span class=\"sev\">" << sev << "</span>" << esc(f.title) << "</h4>\n"
         << "<dl class=\"facts\"><dt>kind</dt><dd>" << esc(f.kind) << "</dd>";
    if (!f.run_id.empty() && known_runs_.count(f.run_id))
      out_ << "<dt>run</dt><dd><a href=\"#run-" << esc(f.run_id) << "\"><code>" << esc(f.run_id) << "</code></a></dd>";
    else if (!f.run_id.empty())
      out_ << "<dt>run</dt><dd><code>" << esc(f.run_id) << "</code> <span class=\"muted\">(not a run of this report)</span></dd>";
    else out_ << "<dt>scope</dt><dd>campaign-wide</dd>";
    if (!f.ranks.empty())
      out_ << "<dt>ranks</dt><dd class=\"ranks\">" << esc(detectors::rank_ranges(f.ranks)) << "</dd>";
    if (!f.location.empty()) out_ << "<dt>location</dt><dd><code>" << esc(f.location) << "</code></dd>";
    out_ << "</dl>\n";
    source_snippet(f, index);
    const bool has_details = !(f.details.is_null() || (f.details.is_object() && f.details.empty()));
    if (has_details || !f.artifacts.empty()) {
      out_ << "<details class=\"finding-details\"><summary>details";
      if (!f.artifacts.empty()) out_ << " and " << f.artifacts.size() << " attachment" << (f.artifacts.size() == 1 ? "" : "s");
      out_ << "</summary>\n";
      details(rounded(f.details));
      for (const auto& a : f.artifacts) {
        // Drawn once, in its technique's section (e.g. as a Chart.js chart): the card links there.
        if (const auto link = html::drawn_in_section(f, a); !link.empty()) out_ << link;
        else artifact(a);
      }
      out_ << "</details>\n";
    }
    out_ << "</article>\n";
  }

  // The source lines around the finding's code location (details.code.source),
  // the target of the headline's file:line link.
  void source_snippet(const detectors::Finding& f, std::size_t index) {
    out_ << "<div class=\"source\" id=\"finding-" << index + 1 << "-source\">";
    const json& d = f.details;
    if (d.is_object() && d.contains("code") && d["code"].is_object() && d["code"].contains("source") &&
        d["code"]["source"].is_array()) {
      const auto& code = d["code"];
      out_ << "<pre class=\"source-snippet\" title=\"" << esc(code.value("file", std::string())) << "\">";
      for (const auto& l : code["source"]) {
        const bool current = l.value("current", false);
        out_ << (current ? "<b>&gt; " : "  ") << l.value("line", 0) << " | " << esc(l.value("text", std::string()))
             << (current ? "</b>" : "") << "\n";
      }
      out_ << "</pre>";
    } else {
      location_snippet(f.location);
    }
    out_ << "</div>\n";
  }

  // Lines around "func (file:line)" read from the file itself, for findings
  // whose detector did not attach them.
  void location_snippet(const std::string& location) {
    static const std::regex kFileLine(R"re(\((/[^():]+):(\d+)\)$)re");
    std::smatch m;
    if (!std::regex_search(location, m, kFileLine)) return;
    std::ifstream in(m[1].str());
    if (!in) return;
    const int target = std::stoi(m[2].str());
    std::string text, line;
    for (int n = 1; std::getline(in, line) && n <= target + 3; ++n) {
      if (n < target - 3) continue;
      const bool current = n == target;
      text += (current ? "<b>&gt; " : "  ") + std::to_string(n) + " | " + esc(line) + (current ? "</b>" : "") + "\n";
    }
    if (!text.empty()) out_ << "<pre class=\"source-snippet\" title=\"" << esc(m[1].str()) << "\">" << text << "</pre>";
  }

  // Outcome counts per campaign point (scale × parameters × noise), stacked.
  void outcome_chart() {
    std::vector<std::string> points;
    std::map<std::string, Counts> counts;
    std::set<std::string> labels;
    for (const auto& r : d_.runs) {
      std::string point = std::to_string(r.spec.nprocs) + " ranks";
      for (const auto& [k, v] : r.spec.params) point += " " + k + "=" + v;
      point += " · " + r.spec.noise.label();
      if (!counts.count(point)) points.push_back(point);
      const auto label = display_label(r);
      ++counts[point][label];
      labels.insert(label);
    }
    if (points.size() < 2) return;  // the table says it all
    json datasets = json::array();
    for (const auto& [label, _] : worst_first([&] {
           Counts c;
           for (const auto& l : labels) c[l] = 1;
           return c;
         }())) {
      json data = json::array();
      for (const auto& p : points) {
        auto it = counts[p].find(label);
        data.push_back(it == counts[p].end() ? 0 : it->second);
      }
      datasets.push_back({{"label", label}, {"data", data}, {"backgroundColor", html::outcome_color(label)}});
    }
    std::reverse(datasets.begin(), datasets.end());  // benign at the bottom of each bar
    json config = {{"type", "bar"},
                   {"data", {{"labels", points}, {"datasets", datasets}}},
                   {"options",
                    {{"plugins", {{"legend", {{"position", "top"}}}}},
                     {"scales",
                      {{"x", {{"stacked", true}}},
                       {"y", {{"stacked", true}, {"title", {{"display", true}, {"text", "runs"}}}, {"ticks", {{"precision", 0}}}}}}}}}};
    charts_drawn_ = true;
    out_ << html::chart_figure("chart-outcomes", "Outcomes per campaign point (ranks, parameters, noise)", config,
                               std::min<int>(420, 200 + 8 * static_cast<int>(points.size())));
  }

  void details(const json& d) {
    if (d.is_null() || (d.is_object() && d.empty())) return;
    if (!d.is_object()) {
      out_ << "<pre class=\"details\">" << esc(dump_json(d)) << "</pre>\n";
      return;
    }
    out_ << "<table class=\"details\"><tbody>\n";
    for (const auto& [key, value] : d.items()) {
      out_ << "<tr><th>" << esc(key) << "</th><td>";
      if (value.is_string()) out_ << esc(value.get<std::string>());
      else if (value.is_primitive()) out_ << esc(dump_json(value, -1));
      else {
        const auto compact = dump_json(value, -1);
        if (compact.size() <= 100) out_ << "<code>" << esc(compact) << "</code>";
        else out_ << "<pre>" << esc(dump_json(value)) << "</pre>";
      }
      out_ << "</td></tr>\n";
    }
    out_ << "</tbody></table>\n";
  }

  void artifact(const detectors::Artifact& a) {
    out_ << "<figure class=\"artifact\" data-media-type=\"" << esc(a.media_type) << "\"><figcaption>" << esc(a.name)
         << " <small class=\"muted\">" << esc(a.media_type) << "</small></figcaption>\n";
    if (a.media_type == "text/vnd.graphviz") {
      const DotRender& r = dot_svg(a.content);
      if (r.ok) {
        out_ << "<div class=\"svg-wrap graph\">" << r.svg << "</div>\n<details><summary>Graphviz source</summary><pre>"
             << esc(a.content) << "</pre></details>\n";
      } else {
        out_ << "<p class=\"warn\">Graph not rendered: " << esc(r.error) << "</p>\n<pre class=\"dot-source\">"
             << esc(a.content) << "</pre>\n";
      }
    } else if (a.media_type == "image/svg+xml") {
      const auto svg = svg_element(a.content);
      if (!svg.empty()) out_ << "<div class=\"svg-wrap\">" << svg << "</div>\n";
      else out_ << "<p class=\"warn\">Not an SVG document:</p><pre>" << esc(a.content) << "</pre>\n";
    } else if (a.media_type == "application/json") {
      const auto parsed = json::parse(a.content, nullptr, /*allow_exceptions=*/false);
      out_ << "<pre>" << esc(parsed.is_discarded() ? a.content : dump_json(parsed)) << "</pre>\n";
    } else {
      out_ << "<pre>" << esc(a.content) << "</pre>\n";
    }
    out_ << "</figure>\n";
  }

  // A Graphviz source rendered once per page (cards and sections share it).
  const DotRender& dot_svg(const std::string& source) {
    auto cached = dot_cache_.find(source);
    if (cached == dot_cache_.end())
      cached = dot_cache_.emplace(source, render_dot(source, opt_.dot_program, opt_.dot_timeout)).first;
    return cached->second;
  }

  void runs() {
    out_ << "<section id=\"runs\"><h2>Runs (" << d_.runs.size() << ")</h2>\n";
    if (d_.runs.empty()) {
      out_ << "<p class=\"none\">No runs recorded.</p></section>\n";
      return;
    }
    out_ << "<table class=\"runs\" id=\"runs-table\">\n<thead><tr><th>run</th><th>ranks</th><th>noise</th>"
         << "<th>parameters</th><th>rep</th><th>outcome</th><th>detail</th><th>wall</th><th>evidence</th></tr></thead>\n"
         << "<tbody>\n";
    for (const auto& r : d_.runs) run_row(r);
    out_ << "</tbody></table>\n</section>\n";
  }

  void run_row(const RunRecord& r) {
    const auto label = display_label(r);
    const bool ok = label == "ok";
    std::string params;
    for (const auto& [k, v] : r.spec.params) params += (params.empty() ? "" : ", ") + k + "=" + v;
    out_ << "<tr id=\"run-" << esc(r.spec.run_id) << "\" class=\"" << (ok ? "ok" : "not-ok") << "\" data-outcome=\""
         << esc(label) << "\"><td class=\"run\"><code>" << esc(r.spec.run_id) << "</code></td><td class=\"num\">" << r.spec.nprocs
         << "</td><td>" << esc(r.spec.noise.label()) << "</td><td>" << esc(params) << "</td><td class=\"num\">"
         << r.spec.repetition << "</td><td>" << pill(label, label) << "</td><td class=\"detail\">";
    if (r.outcome) {
      out_ << esc(r.outcome->detail);
      if (r.outcome->signal) out_ << " <span class=\"muted\">(signal " << r.outcome->signal << ")</span>";
    } else {
      out_ << "<span class=\"muted\">started " << esc(r.started_at) << ", never finished</span>";
    }
    if (auto it = findings_of_run_.find(r.spec.run_id); it != findings_of_run_.end()) {
      out_ << "<br>findings:";
      for (auto i : it->second)
        out_ << " <a href=\"#finding-" << i + 1 << "\">" << esc(d_.findings[i].detector) << "/" << esc(d_.findings[i].kind)
             << "</a>";
    }
    out_ << "</td><td class=\"num\">" << (r.outcome ? esc(text::human_seconds(r.outcome->wall_seconds)) : "")
         << "</td><td>" << html::run_file_links(d_, r) << evidence(r, ok) << "</td></tr>\n";
  }

  std::string evidence(const RunRecord& r, bool ok) {
    std::ostringstream body;
    std::vector<std::string> parts;
    if (r.outcome && !r.outcome->stacks.empty()) {
      parts.push_back("stacks (" + std::to_string(r.outcome->stacks.size()) + ")");
      for (const auto& s : r.outcome->stacks)
        body << "<h5>rank " << s.rank << " <span class=\"muted\">pid " << s.pid << "</span></h5><pre class=\"stack\">"
             << esc(s.text) << "</pre>";
    }
    const auto err = text::file_tail(harness::RunDir(r.dir).stderr_file(), opt_.tail_lines);
    if (!err.empty()) {
      parts.push_back("stderr");
      body << "<h5>stderr <span class=\"muted\">last " << opt_.tail_lines << " lines</span></h5><pre>" << esc(err)
           << "</pre>";
    }
    if (!ok) {
      const auto out = text::file_tail(harness::RunDir(r.dir).stdout_file(), opt_.tail_lines);
      if (!out.empty()) {
        parts.push_back("stdout");
        body << "<h5>stdout <span class=\"muted\">last " << opt_.tail_lines << " lines</span></h5><pre>" << esc(out)
             << "</pre>";
      }
    }
    if (parts.empty()) return "<span class=\"muted\">none</span>";
    std::string summary;
    for (const auto& p : parts) summary += (summary.empty() ? "" : " · ") + p;
    return "<details><summary>" + esc(summary) + "</summary>" + body.str() + "<p class=\"muted\">" +
           esc(r.dir.string()) + "</p></details>";
  }

  const ReportData& d_;
  const HtmlOptions& opt_;
  std::vector<bugs::Bug> bugs_;  // report_bugs: the grouping findings.json and junit.xml use
  std::size_t serious_bugs_ = 0;
  std::vector<const html::ReportSection*> sections_;  // the techniques' sections with findings
  bool charts_drawn_ = false;
  std::map<std::string, std::vector<std::size_t>> findings_of_run_;
  std::map<std::string, DotRender> dot_cache_;
  std::set<std::string> known_runs_, expected_runs_;
  std::ostringstream out_;
};

}  // namespace

std::filesystem::path HtmlReporter::output_path(const ReportData& data) const {
  return file_.empty() ? data.out_dir / "report.html" : file_;
}

std::string HtmlReporter::render(const ReportData& data) const { return HtmlWriter(data, options_).render(); }

}  // namespace scalefuzz::harness
