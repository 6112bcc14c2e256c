// Headless Chromium as the browser tests start it (no sandbox, GPU, QUIC or
// background network; a profile directory of its own), with a 120 s limit.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "scalefuzz/harness/child_process.hpp"

namespace scalefuzz::harness::testing {

inline ProcessResult run_headless_chromium(const std::filesystem::path& profile, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                                   "--no-first-run", "--disable-background-networking", "--disable-component-update",
                                   "--disable-sync", "--user-data-dir=" + profile.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, "", std::chrono::seconds(120));
}

}  // namespace scalefuzz::harness::testing
