// The common tail of `run`, `analyze` and `report`: detectors -> stored
// findings -> reports -> exit code.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::cli {

// Writes findings.json, junit.xml and report.html from the store; prints
// where they are and a one-line verdict; returns the exit code (0 clean, 1 findings).
int write_reports(const harness::RunStore& store);

}  // namespace scalefuzz::cli
