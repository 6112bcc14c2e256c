// The one contract between the harness and the injector about noise: the
// modes and every knob (name, type, unit, default, environment variable,
// one-line doc). The campaign schema, the launcher's environment, `exec
// --noise-set`, the injector's parsing (config.cpp) and the knob table of
// injectors/noise/README.md (checked by a test) all derive from this table.
// Header-only and allocation-free: the preloaded injector includes it too.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace scalefuzz::noise {

enum class Mode { None, Random, System, Application, Local };

inline constexpr std::array<Mode, 5> kModes = {Mode::None, Mode::Random, Mode::System, Mode::Application,
                                               Mode::Local};

constexpr std::string_view to_string(Mode mode) {
  switch (mode) {
    case Mode::None: return "none";
    case Mode::Random: return "random";
    case Mode::System: return "system";
    case Mode::Application: return "application";
    case Mode::Local: return "local";
  }
  return "none";
}

constexpr std::optional<Mode> mode_from_string(std::string_view name) {
  for (Mode m : kModes)
    if (to_string(m) == name) return m;
  return std::nullopt;
}

// The environment variable holding the mode (SCALEFUZZ_NOISE_MODE).
inline constexpr std::string_view kModeEnv = "SCALEFUZZ_NOISE_MODE";
// application mode only: the run directory of the system-centric run whose
// ninja/N.analysis it reads. Set by the harness, not a campaign knob.
inline constexpr std::string_view kAnalysisEnv = "SCALEFUZZ_NOISE_ANALYSIS";
inline constexpr std::string_view kAnalysisKnob = "analysis";

// How a knob's value is written in a campaign file or `--noise-set`, and
// stored (in RunSpec::noise.settings and the environment).
enum class KnobType {
  Probability,     // (0, 1]; stored as written (shortest form)
  PositiveNumber,  // > 0
  PositiveInt,     // integer >= 1
  Duration,        // > 0 with a unit (250ns, 10us, 1.5ms, 2s); stored as integer nanoseconds
  Bandwidth,       // > 0, bytes/s or with a unit (3.14GB/s, 100MB/s, 1GiB/s); stored as integer bytes/s
  Switch,          // true/false; stored as 1/0
};

// What a knob sets in the injector's Config.
enum class KnobId { Probability, Delay, Bandwidth, Latency, Scale, Threshold, PacketSize, Overhead, Victims, ZeroBuffer,
                    GuardReceives };

constexpr unsigned bit(Mode m) { return 1u << static_cast<unsigned>(m); }

struct KnobSpec {
  KnobId id;
  std::string_view name;  // in campaign files, --noise-set and run ids
  std::string_view env;   // environment variable the injector reads
  KnobType type;
  std::string_view unit;  // of the stored value, for the docs
  unsigned modes;         // bit(Mode) of the modes that take it (with this default)
  double default_value;   // in `unit`
  std::string_view doc;   // one line
};

// One row per (knob, modes with the same default). NINJA's knobs follow
// Formula 1 of the paper, D = sum(P_s/B + C) * S_p (§6.1.1), and Formula 2
// with S_a (§6.2).
inline constexpr std::array<KnobSpec, 13> kKnobs = {{
    {KnobId::Probability, "probability", "SCALEFUZZ_NOISE_PROBABILITY", KnobType::Probability, "", bit(Mode::Random),
     0.5, "share of sends delayed"},
    {KnobId::Delay, "delay", "SCALEFUZZ_NOISE_DELAY", KnobType::Duration, "ns", bit(Mode::Random), 2000000,
     "a delayed send waits uniform(0, delay]; the paper's \"iteration time\" (Table 2), README"},
    {KnobId::Bandwidth, "bandwidth", "SCALEFUZZ_NOISE_BANDWIDTH", KnobType::Bandwidth, "bytes/s",
     bit(Mode::System) | bit(Mode::Application), 314.3e6,
     "B of Formula 1: the reference code's 314.3 bytes/us (the paper's text: 3.14 GB/s)"},
    {KnobId::Latency, "latency", "SCALEFUZZ_NOISE_LATENCY", KnobType::Duration, "ns",
     bit(Mode::System) | bit(Mode::Application), 250, "C of Formula 1 (paper §6.1.1, reference code)"},
    {KnobId::Scale, "scale", "SCALEFUZZ_NOISE_SCALE", KnobType::PositiveNumber, "", bit(Mode::System), 1,
     "S_p of Formula 1"},
    {KnobId::Scale, "scale", "SCALEFUZZ_NOISE_SCALE", KnobType::PositiveNumber, "", bit(Mode::Application), 1.2,
     "S_a of Formula 2 (paper §6.2)"},
    {KnobId::Threshold, "threshold", "SCALEFUZZ_NOISE_THRESHOLD", KnobType::PositiveInt, "packets",
     bit(Mode::System) | bit(Mode::Application), 1, "VBQ threshold N_s (the reference code's)"},
    {KnobId::PacketSize, "packet_size", "SCALEFUZZ_NOISE_PACKET_SIZE", KnobType::PositiveInt, "bytes",
     bit(Mode::System) | bit(Mode::Application), 2048, "bytes per packet (the reference code's NINJ_FC_MTU)"},
    {KnobId::Victims, "victims", "SCALEFUZZ_NOISE_VICTIMS", KnobType::Probability, "", bit(Mode::Application), 1,
     "share of ranks (at least one, drawn per run from the seed) whose incoming unsafe sends are delayed; "
     "the reference code's 0.2 exposed NINJA case 3 less often here (README)"},
    {KnobId::Delay, "delay", "SCALEFUZZ_NOISE_DELAY", KnobType::Duration, "ns", bit(Mode::Local), 10000,
     "CPU busy time after every send, receive and completion call (paper §6.2.1)"},
    {KnobId::Overhead, "overhead", "SCALEFUZZ_NOISE_OVERHEAD", KnobType::Duration, "ns",
     bit(Mode::None) | bit(Mode::Random) | bit(Mode::System) | bit(Mode::Application), 0,
     "tool overhead: local's busy time added to the mode (0: none)"},
    {KnobId::ZeroBuffer, "zero_buffer", "SCALEFUZZ_NOISE_ZERO_BUFFER", KnobType::Switch, "",
     bit(Mode::None) | bit(Mode::Random) | bit(Mode::System) | bit(Mode::Application) | bit(Mode::Local), 0,
     "MPI_Send/MPI_Isend run as MPI_Ssend/MPI_Issend: a program that relies on MPI buffering deadlocks (read by the recorder)"},
    {KnobId::GuardReceives, "guard_receives", "SCALEFUZZ_NOISE_GUARD_RECEIVES", KnobType::Switch, "",
     bit(Mode::None) | bit(Mode::Local), 0,
     "pending receive buffers are page-protected until completion: an access is a usage finding (read by the "
     "recorder; the modes without a noise send thread)"},
}};

constexpr bool takes(const KnobSpec& knob, Mode mode) { return (knob.modes & bit(mode)) != 0; }

// The knob `name` of `mode`, or nullptr when that mode has no such knob.
constexpr const KnobSpec* find_knob(Mode mode, std::string_view name) {
  for (const auto& k : kKnobs)
    if (takes(k, mode) && k.name == name) return &k;
  return nullptr;
}

// Any row of the knob `name` (for its type), or nullptr.
constexpr const KnobSpec* find_knob(std::string_view name) {
  for (const auto& k : kKnobs)
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace scalefuzz::noise
