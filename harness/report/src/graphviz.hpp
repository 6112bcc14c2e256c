// Renders Graphviz sources to inline SVG with the `dot` program.
#pragma once

#include <chrono>
#include <string>

namespace scalefuzz::harness {

struct DotRender {
  bool ok = false;
  std::string svg;    // the <svg ...>...</svg> element only, ready to inline
  std::string error;  // why it failed: dot missing, syntax error, timeout
};

DotRender render_dot(const std::string& source, const std::string& dot_program, std::chrono::milliseconds timeout);

// The <svg> element of an SVG document, without XML prolog and doctype;
// "" if there is none.
std::string svg_element(const std::string& document);

}  // namespace scalefuzz::harness
