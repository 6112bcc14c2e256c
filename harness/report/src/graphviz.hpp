// Renders Graphviz sources to inline SVG with the `dot` program, through the
// harness's one spawner (run_process); the techniques' sections get it as
// ReportInput::render_dot.
#pragma once

#include <chrono>
#include <string>

#include "scalefuzz/detectors/api/html_kit.hpp"

namespace scalefuzz::harness {

using DotRender = html_kit::RenderedGraph;
using html_kit::svg_element;

DotRender render_dot(const std::string& source, const std::string& dot_program, std::chrono::milliseconds timeout);

}  // namespace scalefuzz::harness
