// What a command receives from the command line: the values of the options
// its table entry declared (commands.cpp), already checked by CLI11 for type
// and range; positionals; the `--` tail. Errors a command finds itself are
// thrown as UsageError (exit 2) or InfraError (exit 3).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "exit_codes.hpp"

namespace scalefuzz::cli {

using workflows::InfraError;
using workflows::UsageError;

class ParsedArgs {
 public:
  std::vector<std::string> raw;          // the command's arguments as given (after the command name)
  std::vector<std::string> positionals;  // in order, before "--"
  std::vector<std::string> tail;         // after "--" (commands declared with a tail)

  bool has(const std::string& flag) const;
  std::optional<std::string> value(const std::string& flag) const;
  std::vector<std::string> values(const std::string& flag) const;  // a repeatable option, in order
  // The value of an option declared with an integer check (commands.cpp);
  // UsageError if it is not one (it cannot be, once CLI11 checked it).
  std::optional<long long> integer(const std::string& flag) const;

  void add_value(const std::string& flag, std::string value) { values_.emplace(flag, std::move(value)); }
  void add_switch(const std::string& flag) { switches_.insert(flag); }

 private:
  std::multimap<std::string, std::string> values_;
  std::set<std::string> switches_;
};

}  // namespace scalefuzz::cli
