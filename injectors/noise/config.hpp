// Noise configuration from SCALEFUZZ_NOISE_*: the modes, knobs, defaults and
// variables are those of spec/scalefuzz/noise/spec.hpp (README.md's table).
#pragma once

#include <cstdint>
#include <string>

#include "model.hpp"
#include "scalefuzz/noise/spec.hpp"

namespace scalefuzz::noise {

struct Config {
  Mode mode = Mode::None;
  // Knobs: the mode's defaults from spec.hpp, then the environment.
  double probability = 0;           // random
  std::uint64_t delay_ns = 0;       // random: max delay; local: busy time
  std::uint64_t overhead_ns = 0;    // any mode but local: busy time after each call, as local's
  VbqParams vbq;                    // system / application
  double app_scale = 0;             // S_a
  double victims = 0;               // application: share of ranks whose incoming unsafe sends are delayed
  std::string analysis_dir;         // application: a system run's directory
  std::string run_dir;              // where ninja/ goes (empty: no files)
  std::uint64_t seed = 0;
};

// Reads the environment; prints a warning for a bad value and keeps the
// default (the harness validates every value before it starts a run).
Config read_config();

}  // namespace scalefuzz::noise
