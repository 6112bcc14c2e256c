// The "Hangs and crashes" section of report.html: per run that MPI-PD or the
// PDG analysed, the failure situation, the faulty processes, the timeline,
// the progress-dependence graph (rendered by Graphviz dot, inline SVG) and
// the least-progressed task(s) with their code location and source lines.
#pragma once

#include <chrono>
#include <string>

#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::harness::html {

// A complete <section id="hangs">...</section>.
std::string localize_section(const ReportData& data, const std::string& dot_program,
                             std::chrono::milliseconds dot_timeout);

}  // namespace scalefuzz::harness::html
