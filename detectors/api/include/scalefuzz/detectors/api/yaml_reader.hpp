// Checked access to a yaml-cpp tree: every failure becomes a SettingsError
// "file:line:column: message" pointing at the offending node. The campaign
// loader reads its own sections with it, and each technique its section
// (settings_section.hpp), so both fail alike.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scalefuzz/detectors/api/closest_name.hpp"

namespace scalefuzz::settings {

struct MapEntry {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

class YamlReader {
 public:
  explicit YamlReader(std::string origin) : origin_(std::move(origin)) {}

  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& message) const;
  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const {
    fail(node.Mark(), message);
  }

  // A map whose keys must come from `known` (unknown keys get a "did you
  // mean" hint); duplicate keys are rejected. Entries keep file order.
  std::vector<MapEntry> map(const YAML::Node& node, const std::string& what,
                            const std::vector<std::string>& known) const;
  // Fails unless entry.key is one of `known` (with a "did you mean" hint).
  void check_known_key(const MapEntry& entry, const std::string& what, const std::vector<std::string>& known) const;
  // A map with free-form scalar keys (parameters, env); duplicates rejected.
  std::vector<MapEntry> free_map(const YAML::Node& node, const std::string& what) const;
  // A non-empty sequence.
  std::vector<YAML::Node> list(const YAML::Node& node, const std::string& what) const;

  std::string scalar(const YAML::Node& node, const std::string& what) const;
  std::string non_empty_string(const YAML::Node& node, const std::string& what) const;
  long long integer(const YAML::Node& node, const std::string& what, long long min,
                    long long max) const;
  std::uint64_t uint64(const YAML::Node& node, const std::string& what) const;
  double positive_number(const YAML::Node& node, const std::string& what) const;
  bool boolean(const YAML::Node& node, const std::string& what) const;
  // Duration with a unit (ns, us, ms, s, m, h), > 0; returns nanoseconds.
  std::int64_t duration_ns(const YAML::Node& node, const std::string& what) const;

  const std::string& origin() const { return origin_; }

 private:
  std::string origin_;
};

// "a map", "a list", "null", "'text'" — for "expected X, got Y" messages.
std::string describe(const YAML::Node& node);

std::string join(const std::vector<std::string>& items, std::string_view separator);

}  // namespace scalefuzz::settings
