#include "noise_schema.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "scalefuzz/harness/campaign.hpp"
#include "values.hpp"

namespace scalefuzz::harness::detail {

namespace {

enum class KnobKind {
  Probability,     // (0, 1]
  PositiveNumber,  // > 0
  PositiveInt,     // integer >= 1
  Duration,        // > 0, stored as integer nanoseconds
  Bandwidth,       // > 0 bytes/s, stored as bytes/s
};

struct Knob {
  const char* name;
  KnobKind kind;
};

struct Mode {
  const char* name;
  std::vector<Knob> knobs;
};

// The NINJA knobs follow eq. (1) of the paper: D = sum(P_s/B + C) * S_p with
// bandwidth B, per-packet latency C, scale S_p (S_a for application mode),
// VBQ threshold N_s and the packet size that splits messages into packets.
const std::vector<Mode>& modes() {
  // overhead: a tool's busy time after every send, receive and completion
  // call (the paper's 10 us of section 6.2.1), composable with every mode;
  // `local` is that delay alone.
  static const Knob overhead{"overhead", KnobKind::Duration};
  static const std::vector<Knob> ninja = {{"scale", KnobKind::PositiveNumber},
                                          {"bandwidth", KnobKind::Bandwidth},
                                          {"latency", KnobKind::Duration},
                                          {"threshold", KnobKind::PositiveInt},
                                          {"packet_size", KnobKind::PositiveInt},
                                          overhead};
  static const std::vector<Mode> all = {
      {"none", {overhead}},
      {"random", {{"probability", KnobKind::Probability}, {"delay", KnobKind::Duration}, overhead}},
      {"system", ninja},
      {"application", ninja},
      {"local", {{"delay", KnobKind::Duration}}},
  };
  return all;
}

std::string normalise_knob(const YamlReader& reader, const YAML::Node& value, const Knob& knob,
                           const std::string& what) {
  switch (knob.kind) {
    case KnobKind::Probability: {
      double p = reader.positive_number(value, what);
      if (p > 1) reader.fail(value, what + " is a probability and must be in (0, 1], got " + value.Scalar());
      return format_number(p);
    }
    case KnobKind::PositiveNumber:
      return format_number(reader.positive_number(value, what));
    case KnobKind::PositiveInt:
      return std::to_string(reader.integer(value, what, 1, 1'000'000'000'000LL));
    case KnobKind::Duration:
      return std::to_string(reader.duration_ns(value, what));
    case KnobKind::Bandwidth: {
      std::string text = reader.scalar(value, what);
      auto bytes_per_second = parse_bandwidth(text);
      if (!bytes_per_second)
        reader.fail(value, "expected a bandwidth for " + what + ", got '" + text +
                               "' (bytes/s, or with a unit: 3.14GB/s, 100MB/s, 1GiB/s)");
      if (*bytes_per_second <= 0) reader.fail(value, what + " must be > 0, got " + text);
      return format_number(std::round(*bytes_per_second));
    }
  }
  return {};
}

}  // namespace

const std::vector<std::string>& known_noise_modes_list() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& mode : modes()) out.push_back(mode.name);
    return out;
  }();
  return names;
}

std::string display_knob_value(const std::string& mode, const std::string& knob,
                               const std::string& value) {
  std::optional<KnobKind> kind;
  for (const auto& m : modes())
    if (mode == m.name)
      for (const auto& k : m.knobs)
        if (knob == k.name) kind = k.kind;
  if (kind == KnobKind::Duration) {
    std::int64_t ns = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), ns);
    if (ec == std::errc() && end == value.data() + value.size()) return format_duration_ns(ns);
  }
  if (kind == KnobKind::Bandwidth) {
    auto bytes = parse_number(value);
    if (!bytes) return value;
    // '/' cannot appear in a run id, hence "Bps".
    for (auto [unit, scale] : {std::pair{"GBps", 1e9}, {"MBps", 1e6}, {"KBps", 1e3}})
      if (*bytes >= scale) return format_number(*bytes / scale) + unit;
    return value + "Bps";
  }
  return value;
}

NoiseSpec read_noise_entry(const YamlReader& reader, const YAML::Node& node, const std::string& what) {
  if (!node.IsMap())
    reader.fail(node, "expected a map like {mode: system, scale: 1.0} for " + what + ", got " +
                          describe(node));
  // Find the mode first: the allowed keys depend on it.
  const auto entries = reader.free_map(node, what);
  auto mode_entry = std::find_if(entries.begin(), entries.end(),
                                 [](const MapEntry& e) { return e.key == "mode"; });
  if (mode_entry == entries.end()) reader.fail(node, what + " has no 'mode' (one of " +
                                                         join(known_noise_modes_list(), ", ") + ")");
  std::string mode_name = reader.non_empty_string(mode_entry->value, what + ".mode");
  auto mode = std::find_if(modes().begin(), modes().end(),
                           [&](const Mode& m) { return mode_name == m.name; });
  if (mode == modes().end()) {
    std::string hint = closest_name(mode_name, known_noise_modes_list());
    reader.fail(mode_entry->value, "unknown noise mode '" + mode_name + "'" +
                                       (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                                       "; known modes: " + join(known_noise_modes_list(), ", "));
  }
  std::vector<std::string> allowed = {"mode"};
  for (const auto& knob : mode->knobs) allowed.push_back(knob.name);
  reader.map(node, what + " (mode " + mode_name + ")", allowed);

  NoiseSpec spec;
  spec.mode = mode_name;
  for (const auto& entry : entries) {
    if (entry.key == "mode") continue;
    const Knob& knob = *std::find_if(mode->knobs.begin(), mode->knobs.end(),
                                     [&](const Knob& k) { return entry.key == k.name; });
    spec.settings[entry.key] = normalise_knob(reader, entry.value, knob, what + "." + entry.key);
  }
  return spec;
}

}  // namespace scalefuzz::harness::detail
