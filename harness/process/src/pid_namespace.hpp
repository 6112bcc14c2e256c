// Runs a child as PID 1 of its own PID namespace (with its own /proc), so
// that every process it ever starts — however it detaches: setsid, double
// fork — dies with it: when a namespace's first process exits, the kernel
// SIGKILLs everything left in the namespace. Combined with PR_SET_PDEATHSIG
// this also holds when the harness itself is SIGKILLed.
//
// Needs CAP_SYS_ADMIN (root, as in CI). Elsewhere spawn_child starts the
// run under a subreaper keeper instead (child_process.cpp), which takes the
// run's processes down when the harness dies, even by SIGKILL.
#pragma once

namespace scalefuzz::harness {

// The clone flags of a child in its own PID and mount namespace.
unsigned long pid_namespace_clone_flags();

// Probed once per process by starting a throwaway namespace;
// SCALEFUZZ_PID_NAMESPACE=0 turns it off.
bool pid_namespaces_available();

// In the child, before exec: a private copy of the mount tree with the
// namespace's own /proc (UCX opens peers' shared memory through
// /proc/PID/fd, with the namespace's pids). Syscalls only.
bool mount_own_proc();

}  // namespace scalefuzz::harness
