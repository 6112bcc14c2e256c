// Where PID namespaces are not available (no CAP_SYS_ADMIN: an ordinary
// user), a run's mpiexec is started under a small keeper process, forked
// from the harness, that is child subreaper (PR_SET_CHILD_SUBREAPER, no
// privilege needed): every process of the run that detaches (setsid
// children, double-fork grandchildren) is reparented to the keeper, never to
// init. The keeper relays mpiexec's exit status as its own. When the harness
// dies, even by SIGKILL, the keeper notices (the write end of a pipe only the
// harness held closes) and sweeps: SIGKILL to every child, reaping, again,
// until it has no descendant left; then it exits.
#pragma once

#include "child_process.hpp"

namespace scalefuzz::harness {

// fork+exec of `request` under a keeper; returns the keeper's pid, which the
// caller waits for and tracks as the run's root (its exit status is
// mpiexec's: the same code, or death by the same signal). Throws
// std::runtime_error when mpiexec cannot be started.
long spawn_under_keeper(const SpawnRequest& request);

}  // namespace scalefuzz::harness
