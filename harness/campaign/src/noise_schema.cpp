#include "noise_schema.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "scalefuzz/harness/campaign.hpp"
#include "values.hpp"

namespace scalefuzz::harness {

namespace {

using noise::KnobType;

std::string quoted(const std::string& text) { return "'" + text + "'"; }

}  // namespace

std::string normalise_noise_knob(const noise::KnobSpec& knob, const std::string& text, const std::string& what) {
  auto fail = [](const std::string& message) -> std::string { throw std::invalid_argument(message); };
  switch (knob.type) {
    case KnobType::Probability:
    case KnobType::PositiveNumber: {
      const auto value = detail::parse_number(text);
      if (!value) fail("expected a number for " + what + ", got " + quoted(text));
      if (*value <= 0) fail(what + " must be > 0, got " + text);
      if (knob.type == KnobType::Probability && *value > 1)
        fail(what + " is a probability and must be in (0, 1], got " + text);
      return detail::format_number(*value);
    }
    case KnobType::PositiveInt: {
      long long value = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec == std::errc::result_out_of_range) fail(what + " is out of range: " + quoted(text));
      if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        fail("expected an integer for " + what + ", got " + quoted(text));
      if (value < 1 || value > 1'000'000'000'000LL)
        fail(what + " must be between 1 and 1000000000000, got " + text);
      return std::to_string(value);
    }
    case KnobType::Duration: {
      const auto ns = detail::parse_duration_ns(text);
      if (!ns)
        fail("expected a duration for " + what + ", got " + quoted(text) +
             (detail::parse_number(text) ? " (add a unit: ns, us, ms, s, m or h)" : " (e.g. 10us, 2ms, 1.5s, 60s, 2m)"));
      if (*ns <= 0) fail(what + " must be longer than 0, got " + quoted(text));
      return std::to_string(*ns);
    }
    case KnobType::Bandwidth: {
      const auto bytes_per_second = detail::parse_bandwidth(text);
      if (!bytes_per_second)
        fail("expected a bandwidth for " + what + ", got " + quoted(text) +
             " (bytes/s, or with a unit: 3.14GB/s, 100MB/s, 1GiB/s)");
      if (*bytes_per_second <= 0) fail(what + " must be > 0, got " + text);
      return detail::format_number(std::round(*bytes_per_second));
    }
    case KnobType::Switch: {
      // yaml-cpp gives the scalar as written: accept YAML 1.2's booleans and 1/0.
      if (text == "true" || text == "True" || text == "TRUE" || text == "1") return "1";
      if (text == "false" || text == "False" || text == "FALSE" || text == "0") return "0";
      fail("expected true or false for " + what + ", got " + quoted(text));
    }
  }
  return text;
}

std::pair<std::string, std::string> parse_noise_setting(noise::Mode mode, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw std::invalid_argument("expected KNOB=VALUE, got '" + assignment + "'");
  const std::string name = assignment.substr(0, eq);
  const noise::KnobSpec* knob = noise::find_knob(mode, name);
  if (!knob) throw std::invalid_argument(unknown_noise_knob_message(mode, name));
  return {name, normalise_noise_knob(*knob, assignment.substr(eq + 1), name)};
}

const std::vector<std::string>& known_noise_modes() { return detail::known_noise_modes_list(); }

std::string unknown_noise_mode_message(const std::string& name) {
  const std::string hint = detail::closest_name(name, known_noise_modes());
  return "unknown noise mode '" + name + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
         "; known modes: " + detail::join(known_noise_modes(), ", ");
}

std::string unknown_noise_knob_message(noise::Mode mode, const std::string& knob) {
  std::vector<std::string> names;
  for (const auto& k : noise::kKnobs)
    if (noise::takes(k, mode)) names.emplace_back(k.name);
  const std::string hint = detail::closest_name(knob, names);
  return "mode " + std::string(noise::to_string(mode)) + " has no knob '" + knob + "'" +
         (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
         (names.empty() ? "; it takes none" : "; its knobs: " + detail::join(names, ", "));
}

namespace detail {

const std::vector<std::string>& known_noise_modes_list() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (auto mode : noise::kModes) out.emplace_back(noise::to_string(mode));
    return out;
  }();
  return names;
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
  const auto mode = noise::mode_from_string(mode_name);
  if (!mode) reader.fail(mode_entry->value, unknown_noise_mode_message(mode_name));
  std::vector<std::string> allowed = {"mode"};
  for (const auto& knob : noise::kKnobs)
    if (noise::takes(knob, *mode)) allowed.emplace_back(knob.name);
  reader.map(node, what + " (mode " + mode_name + ")", allowed);

  NoiseSpec spec;
  spec.mode = *mode;
  for (const auto& entry : entries) {
    if (entry.key == "mode") continue;
    const noise::KnobSpec& knob = *noise::find_knob(*mode, entry.key);
    const std::string text = reader.scalar(entry.value, what + "." + entry.key);
    try {
      spec.settings[entry.key] = normalise_noise_knob(knob, text, what + "." + entry.key);
    } catch (const std::invalid_argument& e) {
      reader.fail(entry.value, e.what());
    }
  }
  return spec;
}

}  // namespace detail

}  // namespace scalefuzz::harness
