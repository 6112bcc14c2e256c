#include "config.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace scalefuzz::noise {

namespace {
template <class T>
void knob(const char* name, T& out, bool positive = true) {
  const char* v = std::getenv(name);
  if (v == nullptr || v[0] == '\0') return;
  char* end = nullptr;
  double x = std::strtod(v, &end);
  if (end == v || *end != '\0' || (positive && !(x > 0))) {
    std::fprintf(stderr, "scalefuzz noise: ignoring %s=%s (not a positive number)\n", name, v);
    return;
  }
  out = static_cast<T>(x);
}
}  // namespace

Config read_config() {
  Config c;
  const char* m = std::getenv("SCALEFUZZ_NOISE_MODE");
  std::string mode = m != nullptr ? m : "none";
  if (mode == "random") c.mode = Mode::Random;
  else if (mode == "system") c.mode = Mode::System;
  else if (mode == "application") c.mode = Mode::Application;
  else if (mode == "local") c.mode = Mode::Local;
  else if (mode != "none" && !mode.empty())
    std::fprintf(stderr, "scalefuzz noise: unknown SCALEFUZZ_NOISE_MODE=%s; no noise\n", mode.c_str());
  c.delay_ns = c.mode == Mode::Local ? 10000 : 100000;
  knob("SCALEFUZZ_NOISE_PROBABILITY", c.probability);
  knob("SCALEFUZZ_NOISE_DELAY", c.delay_ns);
  if (c.mode != Mode::Local) knob("SCALEFUZZ_NOISE_OVERHEAD", c.overhead_ns);
  knob("SCALEFUZZ_NOISE_BANDWIDTH", c.vbq.bandwidth);
  knob("SCALEFUZZ_NOISE_LATENCY", c.vbq.latency_ns);
  knob("SCALEFUZZ_NOISE_THRESHOLD", c.vbq.threshold);
  knob("SCALEFUZZ_NOISE_PACKET_SIZE", c.vbq.packet_size);
  if (c.mode == Mode::Application) knob("SCALEFUZZ_NOISE_SCALE", c.app_scale);
  else knob("SCALEFUZZ_NOISE_SCALE", c.vbq.scale);
  if (c.probability > 1) c.probability = 1;
  if (const char* a = std::getenv("SCALEFUZZ_NOISE_ANALYSIS")) c.analysis_dir = a;
  if (const char* d = std::getenv("SCALEFUZZ_RUN_DIR")) c.run_dir = d;
  if (const char* s = std::getenv("SCALEFUZZ_SEED")) c.seed = std::strtoull(s, nullptr, 10);
  return c;
}

}  // namespace scalefuzz::noise
