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

// Fixed "%.3f"; a value that is not finite reads 0.000.
std::string fixed3(double value);

// The <svg> element of an SVG document, without XML prolog and doctype;
// "" if there is none.
std::string svg_element(const std::string& document);

// A finding's typed details (a technique's details struct with from_json);
// details that are no object (none at all) read as T's defaults.
template <class T>
T details_as(const nlohmann::json& details) {
  return details.is_object() ? details.get<T>() : T{};
}

// A Graphviz graph rendered for inlining (ReportInput::render_dot).
struct RenderedGraph {
  bool ok = false;
  std::string svg;    // the <svg ...>...</svg> element only, ready to inline
  std::string error;  // why it failed: dot missing, syntax error, timeout
};

}  // namespace scalefuzz::html_kit
