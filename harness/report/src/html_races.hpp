// The "Races" section of report.html: every unintended match the races
// detector reported (the two routines, tag, communicator, ranks, the noise
// that exposed it, the run) and the campaign points whose matching order
// changed between runs.
#pragma once

#include <string>

#include "scalefuzz/harness/report.hpp"

namespace scalefuzz::harness::html {

// A complete <section id="races">...</section>; says so when nothing raced.
std::string races_section(const ReportData& data);

}  // namespace scalefuzz::harness::html
