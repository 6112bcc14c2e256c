// Prints a run's decision-log size: per run, the entries' bytes, the
// decisions they stand for (each failed poll counts) and bytes per decision.
// usage: replay_log_stats RUN_DIR...
#include <iostream>

#include "scalefuzz/trace/decision_log.hpp"

int main(int argc, char** argv) {
  std::uint64_t all_bytes = 0, all_decisions = 0, all_entries = 0;
  for (int i = 1; i < argc; ++i) {
    try {
      for (const auto& log : scalefuzz::trace::read_decision_logs(argv[i])) {
        all_bytes += log.stream_bytes;
        all_decisions += log.decision_count();
        all_entries += log.decisions.size();
      }
    } catch (const std::exception& e) {
      std::cerr << argv[i] << ": " << e.what() << "\n";
      return 2;
    }
  }
  std::cout << "bytes " << all_bytes << " entries " << all_entries << " decisions " << all_decisions
            << " bytes_per_decision " << (all_decisions ? static_cast<double>(all_bytes) / all_decisions : 0.0) << "\n";
  return 0;
}
