// Runs a child as PID 1 of its own PID namespace (with its own /proc), so
// that every process it ever starts — however it detaches: setsid, double
// fork — dies with it: when a namespace's first process exits, the kernel
// SIGKILLs everything left in the namespace. Combined with PR_SET_PDEATHSIG
// this also holds when the harness itself is SIGKILLed.
//
// Needs CAP_SYS_ADMIN (root, as in CI). Elsewhere spawn_child starts the
// run under a subreaper keeper instead (run_keeper.hpp), which takes the
// run's processes down when the harness dies, even by SIGKILL.
#pragma once

#include "child_process.hpp"

namespace scalefuzz::harness {

// Probed once per process by starting a throwaway namespace;
// SCALEFUZZ_PID_NAMESPACE=0 turns it off.
bool pid_namespaces_available();

// fork+exec of `request` in a new PID and mount namespace with /proc
// remounted (UCX opens peers' shared memory through /proc/PID/fd, with
// the namespace's pids). Returns the child's pid as seen by the harness.
// Throws std::runtime_error when it cannot start.
long spawn_in_pid_namespace(const SpawnRequest& request);

}  // namespace scalefuzz::harness
