// The common tail of `run`, `reproduce`, `analyze`, `collect` and `report`:
// detectors -> stored findings -> reports -> exit code.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "scalefuzz/detectors/finding.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/progress.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::workflows {

// Writes findings.json, junit.xml and report.html from the store; prints
// where they are and a one-line verdict; returns the exit code (0 clean, 1
// findings). With `progress`, its status line names the report being
// written and ends before the summary is printed.
int write_reports(const harness::RunStore& store, harness::ConsoleProgress* progress = nullptr);

// The detectors over the store's finished runs (findings saved in the
// store), with the campaign's technique sections, then write_reports. With `progress`, the analysis notes print
// above its status line and its phase names the detector at work.
int analyze_and_report(harness::RunStore& store, const std::set<std::string>& detectors,
                       const settings::TechniqueSettings& settings,
                       harness::ConsoleProgress* progress = nullptr);

}  // namespace scalefuzz::workflows
