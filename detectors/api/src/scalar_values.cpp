#include "scalefuzz/detectors/api/scalar_values.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

namespace scalefuzz::settings {

namespace {

// Splits "1.5ms" into the longest leading number and the rest.
std::pair<std::optional<double>, std::string_view> split_number(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
    ++i;
  if (i == 0) return {std::nullopt, text};
  return {parse_number(text.substr(0, i)), text.substr(i)};
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<double> parse_number(std::string_view text) {
  if (text.empty()) return std::nullopt;
  // from_chars rejects a leading '+'; accept it for friendliness.
  if (text.front() == '+') text.remove_prefix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::optional<std::int64_t> parse_duration_ns(std::string_view text) {
  auto [number, unit] = split_number(trim(text));
  if (!number) return std::nullopt;
  unit = trim(unit);
  static constexpr std::array<std::pair<std::string_view, double>, 7> kUnits{{
      {"ns", 1.0}, {"us", 1e3}, {"\xC2\xB5s", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"m", 60e9},
      {"h", 3600e9}}};
  for (const auto& [name, scale] : kUnits) {
    if (unit != name) continue;
    double ns = std::round(*number * scale);
    if (ns > 9.0e18) return std::nullopt;
    return static_cast<std::int64_t>(ns);
  }
  return std::nullopt;
}

CheckedDuration check_duration(std::string_view text, const std::string& what) {
  const std::string quoted = "'" + std::string(text) + "'";
  const auto ns = parse_duration_ns(text);
  if (!ns) {
    if (parse_number(trim(text)))
      return {0, "expected a duration for " + what + ", got " + quoted +
                     " (add a unit: ns, us, ms, s, m or h); e.g. " + std::string(trim(text)) + "s for seconds"};
    return {0, "expected a duration for " + what + ", got " + quoted + " (e.g. 10us, 2ms, 1.5s, 60s, 2m)"};
  }
  if (*ns <= 0) return {0, what + " must be longer than 0, got " + quoted};
  return {*ns, ""};
}

std::optional<double> parse_bandwidth(std::string_view text) {
  text = trim(text);
  if (auto plain = parse_number(text)) return plain;
  auto [number, unit] = split_number(text);
  if (!number) return std::nullopt;
  unit = trim(unit);
  static constexpr std::array<std::pair<std::string_view, double>, 7> kUnits{{
      {"B/s", 1.0}, {"KB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}, {"KiB/s", 1024.0},
      {"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0}}};
  for (const auto& [name, scale] : kUnits)
    if (unit == name) return *number * scale;
  return std::nullopt;
}

}  // namespace scalefuzz::settings
