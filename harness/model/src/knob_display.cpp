#include "scalefuzz/harness/knob_display.hpp"

#include <array>
#include <charconv>
#include <optional>
#include <utility>

namespace scalefuzz::harness {

namespace {

// The stored value of a bandwidth knob (a plain decimal number).
std::optional<double> parse_number_text(const std::string& text) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

}  // namespace

std::string format_number(double value) {
  std::array<char, 128> buffer{};
  auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                 std::chars_format::fixed);
  if (ec != std::errc()) return std::to_string(value);
  return std::string(buffer.data(), end);
}

std::string format_duration_ns(std::int64_t ns) {
  static constexpr std::array<std::pair<const char*, std::int64_t>, 6> kUnits{{
      {"h", 3'600'000'000'000}, {"m", 60'000'000'000}, {"s", 1'000'000'000},
      {"ms", 1'000'000}, {"us", 1'000}, {"ns", 1}}};
  for (const auto& [name, scale] : kUnits)
    if (ns != 0 && ns % scale == 0) return std::to_string(ns / scale) + name;
  return std::to_string(ns) + "ns";
}

std::string display_knob_value(noise::Mode mode, const std::string& knob, const std::string& value) {
  const noise::KnobSpec* spec = noise::find_knob(mode, knob);
  if (spec && spec->type == noise::KnobType::Duration) {
    std::int64_t ns = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), ns);
    if (ec == std::errc() && end == value.data() + value.size()) return format_duration_ns(ns);
  }
  if (spec && spec->type == noise::KnobType::Bandwidth) {
    auto bytes = parse_number_text(value);
    if (!bytes) return value;
    // '/' cannot appear in a run id, hence "Bps".
    for (auto [unit, scale] : {std::pair{"GBps", 1e9}, {"MBps", 1e6}, {"KBps", 1e3}})
      if (*bytes >= scale) return format_number(*bytes / scale) + unit;
    return value + "Bps";
  }
  // A switch that is on names itself ("none-zero_buffer"); off: "zero_buffer0".
  if (spec && spec->type == noise::KnobType::Switch) return value == "1" ? "" : value;
  return value;
}

}  // namespace scalefuzz::harness
