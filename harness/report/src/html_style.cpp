#include "html_style.hpp"

namespace scalefuzz::harness::html {

namespace {
constexpr OutcomeStyle kStyles[] = {
    {"ok", "#1b7f3b", "#e3f4e8", 0},        {"unfinished", "#6b6b6b", "#f0f0f0", 1},
    {"launch-error", "#455a64", "#e6ebee", 2}, {"failed", "#c25e00", "#fff0dc", 3},
    {"mpi-abort", "#7b1fa2", "#f4e6f8", 4}, {"wrong-result", "#ad1457", "#fce4ee", 5},
    {"crashed", "#d84315", "#fde7e1", 6},   {"hang", "#b71c1c", "#fde2e2", 7},
    {"skipped", "#6b6b6b", "#f0f0f0", 1},
};
}  // namespace

const OutcomeStyle& outcome_style(std::string_view label) {
  // "hang (expected)": a failure the campaign caused on purpose (stall injection).
  static constexpr OutcomeStyle kExpected{"expected", "#24527a", "#e8eef5", 1};
  static constexpr std::string_view kSuffix = " (expected)";
  if (label.size() > kSuffix.size() && label.substr(label.size() - kSuffix.size()) == kSuffix) return kExpected;
  for (const auto& s : kStyles)
    if (s.label == label) return s;
  return kStyles[std::size(kStyles) - 1];
}
const OutcomeStyle* outcome_styles_begin() { return std::begin(kStyles); }
const OutcomeStyle* outcome_styles_end() { return std::end(kStyles); }

const std::string_view kStyleSheet = R"css(
:root { --border: #d6d9de; --muted: #5f6670; --accent: #24527a; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: #1d2125; background: #f6f7f9; }
main { max-width: 1280px; margin: 0 auto; padding: 0 24px 48px; }
header.top { padding: 20px 24px; color: #fff; background: #3d4a57; }
header.top.v-clean { background: #1f6f3c; }
header.top.v-findings { background: #9a2020; }
header.top.v-incomplete { background: #5b6470; }
header.top .inner { max-width: 1280px; margin: 0 auto; }
header.top h1 { margin: 0 0 4px; font-size: 22px; font-weight: 600; }
header.top .verdict { font-size: 17px; margin-bottom: 12px; }
header.top .verdict b { letter-spacing: .06em; padding: 2px 8px; border-radius: 4px; background: rgba(255,255,255,.18); }
.counts { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 12px; padding: 0; list-style: none; }
.counts li { background: #fff; color: #1d2125; border-radius: 6px; padding: 4px 10px; border-left: 6px solid #999; }
.counts li b { font-size: 16px; margin-right: 4px; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; font-size: 13px; opacity: .92; }
dl.meta dt { font-weight: 600; }
dl.meta dd { margin: 0; font-family: ui-monospace, "DejaVu Sans Mono", monospace; word-break: break-all; }
nav.toc { margin: 16px 0 0; font-size: 13px; }
nav.toc a { margin-right: 14px; color: #fff; font-weight: 600; }
section { margin-top: 28px; }
h2 { font-size: 18px; border-bottom: 2px solid var(--border); padding-bottom: 4px; }
h3 { font-size: 16px; margin: 22px 0 8px; }
h3 .count { font-size: 12px; background: #e4e7eb; border-radius: 10px; padding: 1px 8px; margin-left: 6px; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid var(--border); padding: 6px 8px; text-align: left; vertical-align: top; }
thead th { background: #eef0f3; font-weight: 600; }
table.matrix td.cell { min-width: 150px; }
table.matrix th.scale { white-space: nowrap; }
table.matrix th.scale small, .muted { color: var(--muted); font-weight: normal; }
table.matrix td.empty { background: repeating-linear-gradient(45deg, #fafafa, #fafafa 6px, #f0f0f0 6px, #f0f0f0 12px); }
svg.bar { display: block; width: 100%; height: 8px; margin-top: 5px; border-radius: 2px; }
.pill { display: inline-block; border-radius: 10px; padding: 0 8px; margin: 1px 3px 1px 0; font-size: 12px;
        font-weight: 600; white-space: nowrap; border: 1px solid currentColor; }
.legend { font-size: 12px; color: var(--muted); }
.finding { background: #fff; border: 1px solid var(--border); border-left: 6px solid #999; border-radius: 4px;
           padding: 10px 14px; margin: 10px 0; }
.finding.sev-error { border-left-color: #b71c1c; }
.finding.sev-warning { border-left-color: #e08a00; }
.finding.sev-info { border-left-color: #24527a; }
.finding h4 { margin: 0 0 6px; font-size: 15px; }
.sev { text-transform: uppercase; font-size: 11px; letter-spacing: .05em; padding: 1px 6px; border-radius: 3px;
       color: #fff; background: #888; margin-right: 6px; vertical-align: 2px; }
.sev-error .sev { background: #b71c1c; } .sev-warning .sev { background: #c77700; } .sev-info .sev { background: #24527a; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 8px; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; }
table.details { font-size: 13px; margin: 6px 0; }
table.details th { background: #f6f7f9; font-weight: 600; }
figure.artifact { margin: 10px 0; border: 1px solid var(--border); border-radius: 4px; padding: 8px; background: #fcfcfd; }
figure.artifact figcaption { font-weight: 600; margin-bottom: 6px; }
figure.artifact .svg-wrap { overflow: auto; max-height: 720px; background: #fff; }
figure.artifact .svg-wrap svg { max-width: 100%; height: auto; }
pre { background: #f3f4f6; border: 1px solid #e3e5e8; border-radius: 4px; padding: 8px; margin: 4px 0;
      overflow: auto; max-height: 420px; font: 12px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; white-space: pre; }
code { font: 12px ui-monospace, "DejaVu Sans Mono", monospace; }
.warn { color: #9a2020; }
table.runs { width: 100%; font-size: 13px; }
table.runs td.detail { max-width: 340px; }
table.runs tr.not-ok td:first-child { box-shadow: inset 4px 0 0 #b71c1c; }
table.runs td.num, table.runs td.run { text-align: right; white-space: nowrap; }
table.runs td.run { text-align: left; }
details summary { cursor: pointer; color: var(--accent); white-space: nowrap; }
details[open] { min-width: 480px; }
details h5 { margin: 8px 0 2px; font-size: 12px; }
p.none { color: var(--muted); font-style: italic; }
.counts li.expected { border-left-color: #24527a; }
ol.bugs { list-style: none; padding: 0; margin: 0; }
li.bug { background: #fff; border: 1px solid var(--border); border-left: 6px solid #b71c1c; border-radius: 4px;
         padding: 10px 14px; margin: 8px 0; }
li.bug.sev-warning { border-left-color: #e08a00; }
li.bug .bug-line { font-size: 16px; }
li.bug .what { font-size: 17px; }
li.bug .where code { font-size: 14px; }
li.bug .bug-title { color: var(--muted); margin: 2px 0; }
li.bug .bug-facts { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 3px 0; }
li.bug .bug-facts > span { white-space: nowrap; }
li.bug .bug-run { font-size: 13px; margin: 4px 0; }
.run-files a { margin-right: 8px; font: 12px ui-monospace, "DejaVu Sans Mono", monospace; }
td .run-files { display: block; margin-bottom: 2px; }
.replay { display: flex; gap: 8px; align-items: flex-start; margin-top: 6px; }
.replay code { flex: 1; min-width: 0; background: #1d2125; color: #e8eaed; padding: 6px 8px; border-radius: 4px;
               white-space: pre-wrap; word-break: break-all; }
button.copy { font: 12px system-ui, sans-serif; padding: 4px 10px; border: 1px solid var(--border); border-radius: 4px;
              background: #fff; cursor: pointer; }
figure.chart { margin: 14px 0; padding: 8px; background: #fff; border: 1px solid var(--border); border-radius: 4px; }
figure.chart figcaption { font-weight: 600; margin-bottom: 6px; }
.chart-box { position: relative; width: 100%; }
.source pre { max-height: 220px; }
details.finding-details > summary { margin: 4px 0; }
.svg-wrap.graph { overflow: auto; max-width: 100%; }
.svg-wrap.graph svg { max-width: 100%; height: auto; }
table.runs td { overflow-wrap: anywhere; }
table.runs td.run code { white-space: nowrap; }
)css";

}  // namespace scalefuzz::harness::html
