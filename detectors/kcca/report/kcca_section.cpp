// The "Scale models (Vrisha)" section of report.html: the trained KCCA model
// (scales, threshold, cross-validated false-positive rate), the test runs it
// flagged with their divergence point, and one correlation plot per test scale
// with the threshold line (the paper's Figure 5).
#include "kcca_section.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "scalefuzz/detectors/api/html_kit.hpp"
#include "scalefuzz/detectors/kcca/details.hpp"

namespace scalefuzz::detectors::kcca {

namespace {

using html_kit::chart_figure;
using html_kit::esc;
using html_kit::fixed3;
using nlohmann::json;

// A value as the section prints it: its JSON text (numbers, lists).
template <class T>
std::string text_of(const T& value) {
  return json(value).dump();
}

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %%", 100.0 * v);
  return buf;
}

// A score the chart can place (a hand-written or older finding may lack either).
bool has_rank_and_correlation(const RankScore& s) { return s.rank >= 0 && !std::isnan(s.correlation); }

std::string frame_text(const std::optional<FrameDetails>& frame) {
  if (!frame) return "";
  std::string out = frame->function;
  if (out.empty()) out = frame->module + "+" + frame->offset;
  if (!frame->file.empty()) out += " (" + frame->file + ":" + std::to_string(frame->line) + ")";
  return out;
}

// The flagged-runs table row of one scale-anomaly finding.
std::string anomaly_row(const Finding& f, const ScaleAnomalyDetails& d, std::size_t finding_index) {
  double min_corr = 1.0;
  for (const auto& s : d.scores)
    if (s.flagged) min_corr = std::min(min_corr, s.correlation);
  std::string where = "<span class=\"muted\">not localized</span>", train, reason;
  if (!d.divergences.empty()) {
    const DivergenceDetails& div = d.divergences.front();
    where = "<code>" + esc(frame_text(div.test_frame)) + "</code> <span class=\"where\">" + esc(div.where) + "</span>";
    train = frame_text(div.train_frame);
    reason = div.reason;
  }
  const std::string nprocs = std::to_string(d.nprocs);
  return "<tr class=\"flagged-run\" data-nprocs=\"" + esc(nprocs) + "\"><td><a href=\"#finding-" +
         std::to_string(finding_index + 1) + "\"><code>" + esc(f.run_id) + "</code></a></td><td class=\"num\">" +
         esc(nprocs) + "</td><td class=\"num\">" + std::to_string(f.ranks.size()) + " of " +
         std::to_string(d.scores.size()) + "</td><td class=\"num\">" + (f.ranks.empty() ? "" : fixed3(min_corr)) +
         "</td><td>" + where + "</td><td><code>" + esc(train) + "</code></td><td>" + esc(reason) + "</td></tr>\n";
}

// Figure 5 drawn by Chart.js: this scale's test ranks (flagged ones red), the
// training ranks and the threshold, with a legend.
std::string correlation_chart(const Finding& f, const ScaleAnomalyDetails& d) {
  const int nprocs = d.nprocs;
  json test_ok = json::array(), test_flagged = json::array(), train = json::array();
  std::size_t flagged = 0, total = 0;
  int max_rank = std::max(1, nprocs - 1);
  for (const auto& s : d.scores) {
    if (!has_rank_and_correlation(s)) continue;
    ++total;
    flagged += s.flagged;
    const double c = std::round(s.correlation * 1e4) / 1e4;
    (s.flagged ? test_flagged : test_ok).push_back({{"x", s.rank}, {"y", c}});
  }
  for (const auto& [rank, correlation] : d.training_correlations) {
    train.push_back({{"x", rank}, {"y", correlation}});
    max_rank = std::max(max_rank, rank);
  }
  const double cut = d.correlation_threshold;
  json datasets = json::array();
  datasets.push_back({{"type", "line"}, {"label", "threshold " + fixed3(cut)},
                      {"data", {{{"x", 0}, {"y", cut}}, {{"x", max_rank}, {"y", cut}}}},
                      {"borderColor", "#d62728"}, {"borderDash", {6, 4}}, {"pointRadius", 0}, {"borderWidth", 2}});
  if (!train.empty())
    datasets.push_back({{"label", "training ranks"}, {"clip", 10}, {"data", train}, {"backgroundColor", "rgba(158,202,225,0.7)"},
                        {"pointRadius", 2.5}});
  datasets.push_back({{"label", "test ranks on the trend"}, {"clip", 10}, {"data", test_ok}, {"backgroundColor", "#08306b"},
                      {"pointRadius", 4}});
  datasets.push_back({{"label", "test ranks flagged"}, {"clip", 10}, {"data", test_flagged}, {"backgroundColor", "#b30000"},
                      {"pointRadius", 4}});
  const json config = {
      {"type", "scatter"},
      {"data", {{"datasets", datasets}}},
      {"options",
       {{"plugins", {{"legend", {{"position", "bottom"}}}}},
        {"layout", {{"padding", {{"left", 6}, {"right", 12}, {"top", 6}}}}},
        {"scales",
         {{"x", {{"title", {{"display", true}, {"text", "rank"}}}, {"min", 0}, {"max", max_rank}}},
          {"y", {{"title", {{"display", true}, {"text", "correlation"}}}, {"min", -1}, {"max", 1}}}}}}}};
  const std::string which = flagged == total ? "all " + std::to_string(total) + " ranks below the threshold"
                                             : std::to_string(flagged) + " of " + std::to_string(total) +
                                                   " ranks below the threshold";
  return "<div class=\"kcca-plot\" data-nprocs=\"" + std::to_string(nprocs) + "\">" +
         chart_figure("chart-kcca-" + std::to_string(nprocs), std::to_string(nprocs) + " ranks (" + f.run_id + "): " + which,
                      config, 320) +
         "</div>\n";
}

// Its correlation plots (SVG) are drawn once, in this section; the cards link here.
std::string artifact_drawn_here(const Finding&, const detectors::Artifact& a) {
  return a.media_type == "image/svg+xml" ? "correlation plot: Scale models" : "";
}

constexpr const char* kCss =
    "table.kcca { width: 100%; font-size: 13px; } table.kcca td.num { text-align: right; white-space: nowrap; }\n"
    "table.kcca td:last-child { min-width: 220px; } table.kcca td code { word-break: break-all; }\n"
    ".kcca-plots { display: flex; flex-wrap: wrap; gap: 12px; }\n"
    "div.kcca-plot { flex: 1 1 480px; min-width: 0; }\n"
    "table.kcca td:first-child code { white-space: nowrap; word-break: normal; }\n"
    "figure.kcca-plot { margin: 0; border: 1px solid var(--border); border-radius: 4px; padding: 8px; background: #fff;\n"
    "                   flex: 1 1 420px; max-width: 640px; }\n"
    "figure.kcca-plot figcaption { font-weight: 600; margin-bottom: 6px; }\n"
    "figure.kcca-plot svg { max-width: 100%; height: auto; }\n"
    "dl.kcca-model { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; font-size: 13px; }\n"
    "dl.kcca-model dt { color: var(--muted); } dl.kcca-model dd { margin: 0; }\n";

}  // namespace

std::string kcca_section(const analysis::ReportInput& data) {
  std::string model, rows, warnings;
  std::map<int, std::string> plots;  // nprocs -> <figure>
  std::size_t n_flagged = 0;
  for (std::size_t i = 0; i < data.findings.size(); ++i) {
    const Finding& f = data.findings[i];
    if (f.detector != "kcca") continue;
    int nprocs = 0;  // of a scale-anomaly or scale-plot finding: the scale its plot shows
    if (f.kind == "scale-model") {
      const auto d = html_kit::details_as<ScaleModelDetails>(f.details);
      model += "<p class=\"model-summary\">" + esc(f.title) + "</p>\n<dl class=\"kcca-model\">";
      auto item = [&](const char* name, const std::string& value) {
        if (!value.empty()) model += "<dt>" + std::string(name) + "</dt><dd>" + esc(value) + "</dd>";
      };
      item("training ranks", std::to_string(d.training_ranks));
      item("training scales", text_of(d.training_scales));
      item("control features", text_of(d.control_features));
      item("observation features", std::to_string(d.observation_features));
      item("solver", d.solver);
      item("components / γ", std::to_string(d.components) + " / " + text_of(d.gamma));
      item("kernel width factors (control, observation)", text_of(d.control_width) + ", " + text_of(d.observation_width));
      item("flags correlation below", fixed3(d.correlation_threshold));
      if (const auto& cv = d.cross_validation)
        model += "<dt>cross-validated false-positive rate</dt><dd id=\"kcca-cv-fpr\">" +
                 esc(percent(cv->false_positive_rate)) + " (" + esc(std::to_string(cv->flagged)) + " of " +
                 esc(std::to_string(cv->ranks)) + " ranks, " + esc(std::to_string(cv->folds)) + " folds by " +
                 esc(cv->fold_unit) + ")</dd>";
      item("model loaded from", d.model_loaded_from.value_or(""));
      item("model saved to", d.model_file.value_or(""));
      model += "</dl>\n";
    } else if (f.kind == "scale-anomaly") {
      ++n_flagged;
      const auto d = html_kit::details_as<ScaleAnomalyDetails>(f.details);
      rows += anomaly_row(f, d, i);
      nprocs = d.nprocs;
      const bool per_rank_scores = std::any_of(d.scores.begin(), d.scores.end(), has_rank_and_correlation);
      if (per_rank_scores && !plots.count(nprocs)) {
        plots[nprocs] = correlation_chart(f, d);
        continue;
      }
    } else if (f.kind == "scale-plot") {
      nprocs = html_kit::details_as<ScalePlotDetails>(f.details).nprocs;
    } else if (f.severity != detectors::Severity::Info) {
      warnings += "<p class=\"warn\">" + esc(f.title) + "</p>\n";
    }
    for (const auto& a : f.artifacts) {
      if (a.media_type != "image/svg+xml") continue;
      const std::string svg = html_kit::svg_element(a.content);
      if (svg.empty()) continue;
      plots[nprocs] += "<figure class=\"kcca-plot\" data-nprocs=\"" + std::to_string(nprocs) + "\"><figcaption>" +
                       std::to_string(nprocs) + " ranks: " +
                       (f.kind == "scale-anomaly" ? "ranks below the threshold" : "every rank on the trend") +
                       "</figcaption><div class=\"svg-wrap\">" + svg + "</div></figure>\n";
    }
  }
  std::string out = "<section id=\"scale-models\"><h2>Scale models (Vrisha): " + std::to_string(n_flagged) +
                    " test run" + (n_flagged == 1 ? "" : "s") + " off the trend</h2>\n";
  out += "<p class=\"muted\">A KCCA model learns from the training scales how each rank's communication volume per "
         "call site follows its control features (rank, number of ranks, numeric parameters). A test rank whose "
         "projected control and observation vectors correlate less than the training ranks do is flagged; the "
         "divergence point is the innermost frame where its call stack differs from the matching training call "
         "site.</p>\n";
  out += model.empty() ? "<p class=\"none\">No model summary.</p>\n" : model;
  out += warnings;
  if (n_flagged == 0) out += "<p class=\"none\">No test run breaks the learned scale trend.</p>\n";
  else
    out += "<table class=\"kcca\" id=\"kcca-table\">\n<thead><tr><th>run</th><th>ranks</th><th>flagged</th>"
           "<th>min correlation</th><th>divergence (test run)</th><th>matching training site</th><th>why</th></tr>"
           "</thead>\n<tbody>\n" + rows + "</tbody></table>\n";
  if (!plots.empty()) {
    out += "<h3>Per-rank correlation by scale</h3>\n<div class=\"kcca-plots\">\n";
    for (const auto& [_, figure] : plots) out += figure;
    out += "</div>\n";
  }
  return out + "</section>\n";
}

const analysis::ReportSection kReportSection{"scale-models", "Scale models", kcca_section, kCss, artifact_drawn_here};

}  // namespace scalefuzz::detectors::kcca
