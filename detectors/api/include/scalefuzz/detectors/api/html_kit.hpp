// A small HTML kit for report sections (report.html), below the harness and
// the techniques: the escapes every writer of the page uses and Chart.js
// figures. harness/report uses the same functions (text.hpp, html_charts.hpp).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace scalefuzz::html_kit {

// Replaces every invalid UTF-8 sequence with U+FFFD.
std::string sanitize_utf8(std::string_view in);

// Escapes for XML 1.0 / HTML text and attribute values: & < > " ' are
// entities; control characters XML forbids become visible "\xNN"; invalid
// UTF-8 becomes U+FFFD. The result is always well-formed character data.
std::string xml_escape(std::string_view in);
// xml_escape by the short name the HTML writers use.
inline std::string esc(std::string_view in) { return xml_escape(in); }

// JSON text made safe to sit inside a <script> element.
std::string script_safe(const std::string& text);

// A <figure class="chart"> with a canvas `id` drawn from `config` (a Chart.js
// configuration: type, data, options). `height_px` is the drawing height. The
// page's scripts (harness/report html_charts.cpp) draw every such figure.
std::string chart_figure(const std::string& id, const std::string& caption, const nlohmann::json& config,
                         int height_px = 280);

}  // namespace scalefuzz::html_kit
