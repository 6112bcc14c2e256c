#include "scalefuzz/detectors/api/yaml_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "scalefuzz/detectors/api/scalar_values.hpp"
#include "scalefuzz/detectors/api/settings.hpp"

namespace scalefuzz::settings {

namespace {

std::string quote(const std::string& s) { return "'" + s + "'"; }

std::vector<MapEntry> read_entries(const YamlReader& reader, const YAML::Node& node,
                                   const std::string& what) {
  if (!node.IsMap()) reader.fail(node, "expected a map for " + what + ", got " + describe(node));
  std::vector<MapEntry> entries;
  std::unordered_map<std::string, int> line_of;  // key -> its 1-based line (hashed: maps can be long)
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key_node = it->first;
    if (!key_node.IsScalar())
      reader.fail(key_node, "expected a plain key in " + what + ", got " + describe(key_node));
    std::string key = key_node.Scalar();
    if (const auto [seen, fresh] = line_of.emplace(key, key_node.Mark().line + 1); !fresh)
      reader.fail(key_node, "duplicate key " + quote(key) + " in " + what + " (first at line " +
                                std::to_string(seen->second) + ")");
    // yaml-cpp marks an empty value at the next token, often the next line:
    // point at the key instead.
    if (it->second.IsNull()) reader.fail(key_node, quote(key) + " in " + what + " has no value");
    entries.push_back({std::move(key), key_node, it->second});
  }
  return entries;
}

}  // namespace

std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Scalar: return quote(node.Scalar());
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: return "nothing";
  }
  return "?";
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

void YamlReader::fail(const YAML::Mark& mark, const std::string& message) const {
  if (mark.is_null() || mark.line < 0) throw SettingsError(origin_ + ": " + message);
  throw SettingsError(origin_ + ":" + std::to_string(mark.line + 1) + ":" +
                      std::to_string(mark.column + 1) + ": " + message);
}

std::vector<MapEntry> YamlReader::map(const YAML::Node& node, const std::string& what,
                                      const std::vector<std::string>& known) const {
  auto entries = read_entries(*this, node, what);
  for (const auto& entry : entries) check_known_key(entry, what, known);
  return entries;
}

void YamlReader::check_known_key(const MapEntry& entry, const std::string& what,
                                 const std::vector<std::string>& known) const {
  if (std::find(known.begin(), known.end(), entry.key) != known.end()) return;
  std::string message = "unknown key " + quote(entry.key) + " in " + what;
  std::string hint = closest_name(entry.key, known);
  if (!hint.empty())
    message += " (did you mean " + quote(hint) + "?)";
  else
    message += " (known keys: " + join(known, ", ") + ")";
  fail(entry.key_node, message);
}

std::vector<MapEntry> YamlReader::free_map(const YAML::Node& node, const std::string& what) const {
  return read_entries(*this, node, what);
}

std::vector<YAML::Node> YamlReader::list(const YAML::Node& node, const std::string& what) const {
  if (!node.IsSequence()) fail(node, "expected a list for " + what + ", got " + describe(node));
  if (node.size() == 0) fail(node, what + " must not be an empty list");
  std::vector<YAML::Node> items;
  for (const auto& item : node) items.push_back(item);
  return items;
}

std::string YamlReader::scalar(const YAML::Node& node, const std::string& what) const {
  if (!node.IsScalar()) fail(node, "expected a value for " + what + ", got " + describe(node));
  return node.Scalar();
}

std::string YamlReader::non_empty_string(const YAML::Node& node, const std::string& what) const {
  std::string value = scalar(node, what);
  if (value.empty()) fail(node, what + " must not be empty");
  return value;
}

long long YamlReader::integer(const YAML::Node& node, const std::string& what, long long min,
                              long long max) const {
  std::string text = scalar(node, what);
  long long value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range)
    fail(node, what + " is out of range: " + quote(text));
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    fail(node, "expected an integer for " + what + ", got " + quote(text));
  if (value < min || value > max) {
    std::string range = max == std::numeric_limits<long long>::max()
                            ? ">= " + std::to_string(min)
                            : "between " + std::to_string(min) + " and " + std::to_string(max);
    fail(node, what + " must be " + range + ", got " + text);
  }
  return value;
}

std::uint64_t YamlReader::uint64(const YAML::Node& node, const std::string& what) const {
  std::string text = scalar(node, what);
  int base = 10;
  std::string_view digits = text;
  if (digits.starts_with("0x") || digits.starts_with("0X")) digits.remove_prefix(2), base = 16;
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty())
    fail(node, "expected an unsigned 64-bit integer for " + what + ", got " + quote(text));
  return value;
}

double YamlReader::positive_number(const YAML::Node& node, const std::string& what) const {
  std::string text = scalar(node, what);
  auto value = parse_number(text);
  if (!value) fail(node, "expected a number for " + what + ", got " + quote(text));
  if (*value <= 0) fail(node, what + " must be > 0, got " + text);
  return *value;
}

bool YamlReader::boolean(const YAML::Node& node, const std::string& what) const {
  std::string text = scalar(node, what);
  bool value = false;
  if (!YAML::convert<bool>::decode(node, value))
    fail(node, "expected true or false for " + what + ", got " + quote(text));
  return value;
}

std::int64_t YamlReader::duration_ns(const YAML::Node& node, const std::string& what) const {
  const auto duration = check_duration(scalar(node, what), what);
  if (!duration.problem.empty()) fail(node, duration.problem);
  return duration.ns;
}

}  // namespace scalefuzz::settings
