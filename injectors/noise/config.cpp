#include "config.hpp"
#include "scalefuzz/injector/env.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace scalefuzz::noise {

namespace {

void set(Config& c, KnobId id, double x) {
  switch (id) {
    case KnobId::Probability: c.probability = x > 1 ? 1 : x; break;
    case KnobId::Delay: c.delay_ns = static_cast<std::uint64_t>(x); break;
    case KnobId::Bandwidth: c.vbq.bandwidth = x; break;
    case KnobId::Latency: c.vbq.latency_ns = x; break;
    case KnobId::Scale: (c.mode == Mode::Application ? c.app_scale : c.vbq.scale) = x; break;
    case KnobId::Threshold: c.vbq.threshold = static_cast<std::uint64_t>(x); break;
    case KnobId::PacketSize: c.vbq.packet_size = static_cast<std::uint64_t>(x); break;
    case KnobId::Overhead: c.overhead_ns = static_cast<std::uint64_t>(x); break;
    case KnobId::Victims: c.victims = x > 1 ? 1 : x; break;
    case KnobId::ZeroBuffer: break;  // the recorder reads SCALEFUZZ_NOISE_ZERO_BUFFER (it owns the send wrappers)
    case KnobId::GuardReceives: break;  // the recorder reads SCALEFUZZ_NOISE_GUARD_RECEIVES (receive_guard.cpp)
    case KnobId::GuardWindows: break;   // the recorder reads SCALEFUZZ_NOISE_GUARD_WINDOWS (receive_guard.cpp)
  }
}

// Stored values are plain numbers (durations in ns, bandwidths in bytes/s).
void read_knob(Config& c, const KnobSpec& knob) {
  const char* v = std::getenv(knob.env.data());  // string literals: NUL-terminated
  if (v == nullptr || v[0] == '\0' || knob.type == KnobType::Switch) return;
  char* end = nullptr;
  const double x = std::strtod(v, &end);
  if (end == v || *end != '\0' || !(x > 0)) {
    std::fprintf(stderr, "scalefuzz noise: ignoring %s=%s (not a positive number)\n", knob.env.data(), v);
    return;
  }
  set(c, knob.id, x);
}

}  // namespace

Config read_config() {
  Config c;
  const char* m = std::getenv(kModeEnv.data());
  const std::string mode = m != nullptr ? m : "";
  if (auto parsed = mode_from_string(mode)) c.mode = *parsed;
  else if (!mode.empty())
    std::fprintf(stderr, "scalefuzz noise: unknown %s=%s; no noise\n", kModeEnv.data(), mode.c_str());
  for (const auto& knob : kKnobs)
    if (takes(knob, c.mode)) set(c, knob.id, knob.default_value);
  for (const auto& knob : kKnobs)
    if (takes(knob, c.mode)) read_knob(c, knob);
  if (const char* a = std::getenv(kAnalysisEnv.data())) c.analysis_dir = a;
  if (const char* d = injector::env_value(injector::Env::RunDir)) c.run_dir = d;
  if (const char* s = injector::env_value(injector::Env::Seed)) c.seed = std::strtoull(s, nullptr, 10);
  return c;
}

}  // namespace scalefuzz::noise
