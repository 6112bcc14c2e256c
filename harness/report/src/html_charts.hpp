// Charts of report.html drawn by Chart.js (Debian's libjs-chart.js), inlined
// so the page stays one self-contained file that works offline. Each chart is
// a <canvas> plus its configuration as JSON; one small script draws them all.
// The numbers behind every chart are also in a table of the page, so a
// missing Chart.js costs pictures, not information.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "scalefuzz/detectors/api/html_kit.hpp"

namespace scalefuzz::harness::html {

// The Chart.js library text, or "" when the file cannot be read.
std::string load_chartjs(const std::filesystem::path& file);

// chart_figure: in the HTML kit (detectors/api), for the techniques' sections too.
using html_kit::chart_figure;

// The <script> elements that end the page: Chart.js itself (if loaded), the
// loop that draws every chart_figure and the copy buttons' handler.
std::string page_scripts(const std::string& chartjs_source);

// Outcome colours shared by the matrix and the charts.
std::string outcome_color(const std::string& label);

}  // namespace scalefuzz::harness::html
