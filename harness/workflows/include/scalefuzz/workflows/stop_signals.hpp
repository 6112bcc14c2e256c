// SIGINT and SIGTERM (Ctrl-C, kill) of run, exec and reproduce: the handler
// only sets a flag, which the command polls and passes as
// LaunchOptions::cancel (the runs in flight are killed at once); the command
// then says so and exits 130.
#pragma once

#include <atomic>

namespace scalefuzz::workflows {

// Set by SIGINT or SIGTERM between stop_on_signals() and default_signals().
std::atomic<bool>& stop_requested();

void stop_on_signals();
// The default actions again: a second Ctrl-C during analysis kills at once.
void default_signals();

}  // namespace scalefuzz::workflows
