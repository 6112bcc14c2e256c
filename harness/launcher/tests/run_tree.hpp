// Independent /proc checks for the MPI tests (deliberately not using the
// launcher's own process tracking): which processes still belong to a run.
#pragma once

#include <string>
#include <vector>

namespace scalefuzz::harness::testing {

// Live or zombie processes whose environment has SCALEFUZZ_RUN_ID=run_id, plus
// every process (zombies included) whose parent is this test process.
std::vector<std::string> leftovers_of_run(const std::string& run_id);

// Live rank processes (PMI_RANK set) carrying SCALEFUZZ_RUN_ID=run_id.
int live_ranks_of_run(const std::string& run_id);

// Reaps zombie children of this test process (only for tests that have no
// other children at that moment).
void reap_zombie_children();

// State letter from /proc/PID/stat, '?' when gone.
char process_state(long pid);

// Value of NAME in /proc/PID/environ, "" when absent.
std::string environ_value(long pid, const std::string& name);

}  // namespace scalefuzz::harness::testing
