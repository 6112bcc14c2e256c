#include "scalefuzz/workflows/stop_signals.hpp"

#include <csignal>

namespace scalefuzz::workflows {
namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_stop_signal(int) { g_stop = true; }

}  // namespace

std::atomic<bool>& stop_requested() { return g_stop; }

void stop_on_signals() {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
}

void default_signals() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

}  // namespace scalefuzz::workflows
