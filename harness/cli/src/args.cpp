#include "args.hpp"

#include <charconv>

namespace scalefuzz::cli {

bool ParsedArgs::has(const std::string& flag) const {
  return switches_.count(flag) > 0 || values_.count(flag) > 0;
}

std::optional<std::string> ParsedArgs::value(const std::string& flag) const {
  auto it = values_.find(flag);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> ParsedArgs::values(const std::string& flag) const {
  std::vector<std::string> out;
  auto [lo, hi] = values_.equal_range(flag);
  for (auto it = lo; it != hi; ++it) out.push_back(it->second);
  return out;
}

std::optional<long long> ParsedArgs::integer(const std::string& flag) const {
  auto v = value(flag);
  if (!v) return std::nullopt;
  long long n = 0;
  auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
  if (ec != std::errc() || end != v->data() + v->size() || v->empty())
    throw UsageError(flag + ": expected an integer, got '" + *v + "'");
  return n;
}

}  // namespace scalefuzz::cli
