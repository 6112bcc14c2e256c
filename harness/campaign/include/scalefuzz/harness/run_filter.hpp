// The --filter language: comma-separated terms that must all hold, e.g.
//   np>=16,noise=system|none,count=512,id~r0
// Keys: np (alias nprocs), role, noise, rep, seed, id, and every campaign
// parameter. Operators: = != < <= > >= ~ (substring) !~. `=`, `!=`, `~` and
// `!~` take alternatives separated by `|`. Documented in docs/campaign-file.md.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

// A malformed filter expression; what() quotes the expression and points at
// the offending term. The CLI maps it to exit code 2.
class FilterError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

enum class FilterOp { Eq, Ne, Lt, Le, Gt, Ge, Contains, NotContains };

struct FilterTerm {
  std::string key;
  FilterOp op = FilterOp::Eq;
  std::vector<std::string> values;  // alternatives (one for ordering operators)
  std::string text;                 // the term as written, for messages
};

class RunFilter {
 public:
  RunFilter() = default;  // matches every run
  explicit RunFilter(std::vector<FilterTerm> terms) : terms_(std::move(terms)) {}
  const std::vector<FilterTerm>& terms() const { return terms_; }
  bool matches(const RunSpec& run) const;
  // Rejects keys that are neither built in nor a parameter of any of `runs`.
  void check_keys(const std::vector<RunSpec>& runs) const;

 private:
  std::vector<FilterTerm> terms_;
};

// Syntax check only; an empty or blank expression matches everything.
RunFilter parse_filter(const std::string& expr);

// parse_filter + check_keys + select, keeping the input order.
std::vector<RunSpec> filter_runs(const std::vector<RunSpec>& runs, const std::string& expr);

}  // namespace scalefuzz::harness
