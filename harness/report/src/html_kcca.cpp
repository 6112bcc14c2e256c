#include "html_kcca.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "graphviz.hpp"
#include "html_charts.hpp"
#include "text.hpp"

namespace scalefuzz::harness::html {

namespace {

using nlohmann::json;
using detectors::Finding;

using text::esc;

std::string str(const json& d, const char* key) {
  if (!d.is_object() || !d.contains(key)) return "";
  const auto& v = d.at(key);
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %%", 100.0 * v);
  return buf;
}

std::string frame_text(const json& frame) {
  if (!frame.is_object()) return "";
  std::string out = str(frame, "function");
  if (out.empty()) out = str(frame, "module") + "+" + str(frame, "offset");
  if (const auto file = str(frame, "file"); !file.empty()) out += " (" + file + ":" + str(frame, "line") + ")";
  return out;
}

// The flagged-runs table row of one scale-anomaly finding.
std::string anomaly_row(const Finding& f, std::size_t finding_index) {
  const json& d = f.details;
  double min_corr = 1.0;
  std::size_t n_scores = 0;
  if (d.contains("scores") && d["scores"].is_array())
    for (const auto& s : d["scores"]) {
      ++n_scores;
      if (s.is_object() && s.contains("flagged") && s["flagged"] == true && s.contains("correlation") &&
          s["correlation"].is_number())
        min_corr = std::min(min_corr, s["correlation"].get<double>());
    }
  std::string where = "<span class=\"muted\">not localized</span>", train, reason;
  if (d.contains("divergences") && d["divergences"].is_array() && !d["divergences"].empty()) {
    const json& div = d["divergences"].front();
    const auto frame = [&](const char* key) { return div.is_object() && div.contains(key) ? div[key] : json(); };
    where = "<code>" + esc(frame_text(frame("test_frame"))) + "</code> <span class=\"where\">" +
            esc(str(div, "where")) + "</span>";
    train = frame_text(frame("train_frame"));
    reason = str(div, "reason");
  }
  return "<tr class=\"flagged-run\" data-nprocs=\"" + esc(str(d, "nprocs")) + "\"><td><a href=\"#finding-" +
         std::to_string(finding_index + 1) + "\"><code>" + esc(f.run_id) + "</code></a></td><td class=\"num\">" +
         esc(str(d, "nprocs")) + "</td><td class=\"num\">" + std::to_string(f.ranks.size()) + " of " +
         std::to_string(n_scores) + "</td><td class=\"num\">" + (f.ranks.empty() ? "" : text::fixed3(min_corr)) +
         "</td><td>" + where + "</td><td><code>" + esc(train) + "</code></td><td>" + esc(reason) + "</td></tr>\n";
}

// Figure 5 drawn by Chart.js: this scale's test ranks (flagged ones red), the
// training ranks and the threshold, with a legend.
std::string correlation_chart(const Finding& f, int nprocs) {
  const json& d = f.details;
  json test_ok = json::array(), test_flagged = json::array(), train = json::array();
  std::size_t flagged = 0, total = 0;
  int max_rank = std::max(1, nprocs - 1);
  for (const auto& s : d["scores"]) {
    if (!s.is_object() || !s.contains("rank") || !s.contains("correlation")) continue;
    ++total;
    const bool is_flagged = s.value("flagged", false);
    flagged += is_flagged;
    const double c = std::round(s["correlation"].get<double>() * 1e4) / 1e4;
    (is_flagged ? test_flagged : test_ok).push_back({{"x", s["rank"]}, {"y", c}});
  }
  if (d.contains("training_correlations") && d["training_correlations"].is_array())
    for (const auto& t : d["training_correlations"])
      if (t.is_array() && t.size() == 2) {
        train.push_back({{"x", t[0]}, {"y", t[1]}});
        max_rank = std::max(max_rank, t[0].get<int>());
      }
  const double cut = d.contains("correlation_threshold") && d["correlation_threshold"].is_number()
                         ? d["correlation_threshold"].get<double>() : 0.0;
  json datasets = json::array();
  datasets.push_back({{"type", "line"}, {"label", "threshold " + text::fixed3(cut)},
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

}  // namespace

std::string kcca_section(const ReportData& data) {
  std::string model, rows, warnings;
  std::map<int, std::string> plots;  // nprocs -> <figure>
  std::size_t n_flagged = 0;
  for (std::size_t i = 0; i < data.findings.size(); ++i) {
    const Finding& f = data.findings[i];
    if (f.detector != "kcca") continue;
    const json& d = f.details;
    if (f.kind == "scale-model") {
      model += "<p class=\"model-summary\">" + esc(f.title) + "</p>\n<dl class=\"kcca-model\">";
      auto item = [&](const char* name, const std::string& value) {
        if (!value.empty()) model += "<dt>" + std::string(name) + "</dt><dd>" + esc(value) + "</dd>";
      };
      item("training ranks", str(d, "training_ranks"));
      item("training scales", str(d, "training_scales"));
      item("control features", str(d, "control_features"));
      item("observation features", str(d, "observation_features"));
      item("solver", str(d, "solver"));
      item("components / γ", str(d, "components") + " / " + str(d, "gamma"));
      item("kernel width factors (control, observation)", str(d, "control_width") + ", " + str(d, "observation_width"));
      if (d.contains("correlation_threshold") && d["correlation_threshold"].is_number())
        item("flags correlation below", text::fixed3(d["correlation_threshold"].get<double>()));
      if (d.contains("cross_validation") && d["cross_validation"].is_object()) {
        const json& cv = d["cross_validation"];
        if (cv.contains("false_positive_rate") && cv["false_positive_rate"].is_number())
          model += "<dt>cross-validated false-positive rate</dt><dd id=\"kcca-cv-fpr\">" +
                   esc(percent(cv["false_positive_rate"].get<double>())) + " (" + esc(str(cv, "flagged")) + " of " +
                   esc(str(cv, "ranks")) + " ranks, " + esc(str(cv, "folds")) + " folds by " +
                   esc(str(cv, "fold_unit")) + ")</dd>";
      }
      item("model loaded from", str(d, "model_loaded_from"));
      item("model saved to", str(d, "model_file"));
      model += "</dl>\n";
    } else if (f.kind == "scale-anomaly") {
      ++n_flagged;
      rows += anomaly_row(f, i);
    } else if (f.severity != detectors::Severity::Info) {
      warnings += "<p class=\"warn\">" + esc(f.title) + "</p>\n";
    }
    const int nprocs_of_f = d.is_object() && d.contains("nprocs") && d["nprocs"].is_number_integer() ? d["nprocs"].get<int>() : 0;
    const bool per_rank_scores = d.contains("scores") && d["scores"].is_array() &&
                                 std::any_of(d["scores"].begin(), d["scores"].end(), [](const json& x) {
                                   return x.is_object() && x.contains("rank") && x.contains("correlation") &&
                                          x["correlation"].is_number();
                                 });
    if (f.kind == "scale-anomaly" && per_rank_scores && !plots.count(nprocs_of_f)) {
      plots[nprocs_of_f] = correlation_chart(f, nprocs_of_f);
      continue;
    }
    for (const auto& a : f.artifacts) {
      if (a.media_type != "image/svg+xml") continue;
      const int nprocs = nprocs_of_f;
      const std::string svg = svg_element(a.content);
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

}  // namespace scalefuzz::harness::html
