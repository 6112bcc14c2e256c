// NINJA application-centric runs read the analysis a system-centric run of
// the same campaign point wrote (injectors/noise/README.md has the contract).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "scalefuzz/harness/run_spec.hpp"
#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::engine {

// Whether `dir` holds the analysis of every rank of an `nprocs` run.
bool has_ninja_analysis(const std::filesystem::path& dir, int nprocs);

// The run directory of a finished system-centric run with the same nprocs
// and parameters as `app` whose ranks all wrote ninja/N.analysis; the same
// repetition is preferred, then the lowest. nullopt when there is none.
std::optional<std::filesystem::path> ninja_analysis_for(const harness::RunSpec& app,
                                                        const std::vector<harness::RunRecord>& runs);
std::optional<std::filesystem::path> ninja_analysis_for(const harness::RunStore& store, const harness::RunSpec& app);

// Puts every application-centric run after all other runs (stable), so the
// system runs they depend on finish first.
void order_for_ninja(std::vector<harness::RunSpec>& runs);

// The phases of a campaign: every run of a phase starts after all runs of
// the earlier phases ended. The system-centric runs of a point write what
// its application-centric runs read, so those form the second phase.
std::vector<std::vector<harness::RunSpec>> schedule_phases(std::vector<harness::RunSpec> runs);

// Why an application run cannot start, naming it.
std::string missing_analysis_message(const harness::RunSpec& app);
// True when a system-centric run of `app`'s point finished but wrote no NINJA
// analysis (it hung or crashed): `app` is then skipped, not a launch error.
bool system_run_did_not_finish_cleanly(const harness::RunSpec& app, const std::vector<harness::RunRecord>& runs);
std::string skipped_message(const harness::RunSpec& app);

// Potential races of the system run (the registered technique's schedule
// analysis: vector clocks, analysis::schedule_analysis()) as
// application-centric noise's extra unsafe message ids: writes
// `system_run/ninja/potential.unsafe` ("unsafe TAG COMM" lines) once; the
// injector adds them to the analysis' unsafe ids. Best effort: an unreadable
// trace writes nothing.
void write_potential_unsafe(const std::filesystem::path& system_run);

}  // namespace scalefuzz::engine
