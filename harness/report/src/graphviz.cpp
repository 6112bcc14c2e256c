#include "graphviz.hpp"

#include "scalefuzz/harness/child_process.hpp"

namespace scalefuzz::harness {

DotRender render_dot(const std::string& source, const std::string& dot_program, std::chrono::milliseconds timeout) {
  DotRender r;
  const auto run = run_process({dot_program, "-Tsvg"}, source, timeout);
  if (!run.started) {
    r.error = run.err.empty() ? dot_program + " could not be started" : run.err;
  } else if (run.timed_out) {
    r.error = dot_program + " did not finish within " + std::to_string(timeout.count()) + " ms";
  } else if (!run.succeeded()) {
    r.error = dot_program + " failed" + (run.signal ? " with signal " + std::to_string(run.signal)
                                                    : " with exit code " + std::to_string(run.exit_code)) +
              (run.err.empty() ? "" : ": " + run.err);
  } else {
    r.svg = svg_element(run.out);
    r.ok = !r.svg.empty();
    if (!r.ok) r.error = dot_program + " produced no SVG";
  }
  return r;
}

}  // namespace scalefuzz::harness
