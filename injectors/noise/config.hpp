// Noise configuration from SCALEFUZZ_NOISE_* (see README.md for the contract).
#pragma once

#include <cstdint>
#include <string>

#include "model.hpp"

namespace scalefuzz::noise {

enum class Mode { None, Random, System, Application, Local };

struct Config {
  Mode mode = Mode::None;
  double probability = 0.5;         // random
  std::uint64_t delay_ns = 0;       // random: max delay; local: busy time
  std::uint64_t overhead_ns = 0;    // any mode but local: busy time after each call, as local's
  VbqParams vbq;                    // system / application
  double app_scale = 1.2;           // S_a
  std::string analysis_dir;         // application: a system run's directory
  std::string run_dir;              // where ninja/ goes (empty: no files)
  std::uint64_t seed = 0;
};

// Reads the environment; prints a warning for a bad value and keeps the default.
Config read_config();

}  // namespace scalefuzz::noise
