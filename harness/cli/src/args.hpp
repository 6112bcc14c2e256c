// A small command-line parser: flags with values, boolean switches,
// positionals and a `--` tail. Errors name the offending argument.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace scalefuzz::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown for missing launchers, unreachable services, unwritable output.
struct InfraError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum ExitCode : int { kExitOk = 0, kExitFindings = 1, kExitUsage = 2, kExitInfra = 3 };

struct ArgSpec {
  std::set<std::string> value_flags;   // "--out", "--jobs" ...
  std::set<std::string> switch_flags;  // "--dry-run", "--help" ...
  std::set<std::string> multi_flags;   // value flags that may repeat ("--noise-set")
  bool allow_tail = false;             // accepts "-- cmd args..."
};

class ParsedArgs {
 public:
  std::vector<std::string> positionals;
  std::vector<std::string> tail;  // after "--"
  bool has(const std::string& flag) const;
  std::optional<std::string> value(const std::string& flag) const;
  std::vector<std::string> values(const std::string& flag) const;
  // Integer value of a flag within [min, max]; UsageError otherwise.
  std::optional<long> int_value(const std::string& flag, long min, long max) const;

 private:
  friend ParsedArgs parse_args(const std::vector<std::string>&, const ArgSpec&);
  std::multimap<std::string, std::string> values_;
  std::set<std::string> switches_;
};

// Accepts "--flag value" and "--flag=value".
ParsedArgs parse_args(const std::vector<std::string>& args, const ArgSpec& spec);

}  // namespace scalefuzz::cli
