#include "args.hpp"

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

std::optional<long> ParsedArgs::int_value(const std::string& flag, long min, long max) const {
  auto v = value(flag);
  if (!v) return std::nullopt;
  std::size_t used = 0;
  long n = 0;
  try {
    n = std::stol(*v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v->size() || v->empty())
    throw UsageError(flag + ": expected an integer, got '" + *v + "'");
  if (n < min || n > max)
    throw UsageError(flag + ": " + *v + " is out of range [" + std::to_string(min) + ", " +
                     std::to_string(max) + "]");
  return n;
}

ParsedArgs parse_args(const std::vector<std::string>& args, const ArgSpec& spec) {
  ParsedArgs out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      if (!spec.allow_tail) throw UsageError("unexpected '--'");
      out.tail.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    if (a.size() > 1 && a[0] == '-' && a != "-") {
      std::string name = a;
      std::optional<std::string> inline_value;
      if (auto eq = a.find('='); eq != std::string::npos) {
        name = a.substr(0, eq);
        inline_value = a.substr(eq + 1);
      }
      if (name == "-h") name = "--help";
      if (spec.switch_flags.count(name)) {
        if (inline_value) throw UsageError(name + " takes no value");
        out.switches_.insert(name);
      } else if (spec.value_flags.count(name) || spec.multi_flags.count(name)) {
        std::string v;
        if (inline_value) {
          v = *inline_value;
        } else {
          if (i + 1 >= args.size()) throw UsageError(name + " needs a value");
          v = args[++i];
        }
        if (!spec.multi_flags.count(name) && out.values_.count(name))
          throw UsageError(name + " given twice");
        out.values_.emplace(name, v);
      } else {
        throw UsageError("unknown option '" + name + "'");
      }
      continue;
    }
    out.positionals.push_back(a);
  }
  return out;
}

}  // namespace scalefuzz::cli
