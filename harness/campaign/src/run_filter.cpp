#include "scalefuzz/harness/run_filter.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <set>

#include "scalefuzz/harness/campaign.hpp"
#include "values.hpp"
#include "yaml_reader.hpp"

namespace scalefuzz::harness {

namespace {

const std::vector<std::string>& builtin_keys() {
  static const std::vector<std::string> keys = {"np", "nprocs", "role", "noise", "rep", "seed", "id"};
  return keys;
}

std::string trim(const std::string& s) {
  auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

bool is_ordering(FilterOp op) {
  return op == FilterOp::Lt || op == FilterOp::Le || op == FilterOp::Gt || op == FilterOp::Ge;
}

[[noreturn]] void bad_term(const std::string& expr, const std::string& term, const std::string& why) {
  throw FilterError("bad filter term '" + term + "' in \"" + expr + "\": " + why);
}

FilterTerm parse_term(const std::string& expr, const std::string& text) {
  FilterTerm term;
  term.text = text;
  std::size_t i = 0;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
  if (i == 0) bad_term(expr, text, "expected KEY OP VALUE, e.g. np>=16, noise=system, id~r0");
  term.key = text.substr(0, i);
  if (term.key == "nprocs") term.key = "np";
  std::string rest = trim(text.substr(i));
  // Longest operators first.
  static const std::array<std::pair<const char*, FilterOp>, 9> kOps{{
      {"!~", FilterOp::NotContains}, {"!=", FilterOp::Ne}, {"<=", FilterOp::Le},
      {">=", FilterOp::Ge}, {"==", FilterOp::Eq}, {"=", FilterOp::Eq}, {"<", FilterOp::Lt},
      {">", FilterOp::Gt}, {"~", FilterOp::Contains}}};
  std::size_t op_length = 0;
  for (const auto& [symbol, op] : kOps) {
    std::string s = symbol;
    if (rest.compare(0, s.size(), s) == 0) {
      term.op = op;
      op_length = s.size();
      break;
    }
  }
  if (op_length == 0)
    bad_term(expr, text, "expected an operator (= != < <= > >= ~ !~) after '" + term.key + "'");
  std::string value = trim(rest.substr(op_length));
  if (value.empty()) bad_term(expr, text, "missing value after the operator");
  std::size_t start = 0;
  while (true) {  // '|' separates alternatives
    std::size_t bar = value.find('|', start);
    std::string alternative = trim(value.substr(start, bar == std::string::npos ? bar : bar - start));
    if (alternative.empty()) bad_term(expr, text, "empty alternative around '|'");
    term.values.push_back(alternative);
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  if (is_ordering(term.op)) {
    if (term.values.size() > 1) bad_term(expr, text, "'|' only works with =, !=, ~ and !~");
    if (term.key == "role" || term.key == "noise" || term.key == "id")
      bad_term(expr, text, term.key + " cannot be compared with <, <=, > or >=");
    if (!detail::parse_number(term.values[0]))
      bad_term(expr, text, "'" + term.values[0] + "' is not a number");
  }
  bool exact = term.op == FilterOp::Eq || term.op == FilterOp::Ne;
  for (const auto& v : term.values) {
    if ((term.key == "np" || term.key == "rep" || term.key == "seed") && exact &&
        !detail::parse_number(v))
      bad_term(expr, text, term.key + " takes a number, got '" + v + "'");
    if (term.key == "role" && exact && v != "train" && v != "test")
      bad_term(expr, text, "role is train or test, got '" + v + "'");
    if (term.key == "noise" && exact && v.find('-') == std::string::npos) {
      const auto& modes = known_noise_modes();
      if (std::find(modes.begin(), modes.end(), v) == modes.end())
        bad_term(expr, text, "unknown noise mode '" + v + "' (known: " + detail::join(modes, ", ") +
                                 "; or a full label such as system-scale1.2)");
    }
  }
  return term;
}

std::optional<std::string> field(const RunSpec& run, const std::string& key) {
  if (key == "np") return std::to_string(run.nprocs);
  if (key == "role") return run.scale_role;
  if (key == "noise") return run.noise.label();
  if (key == "rep") return std::to_string(run.repetition);
  if (key == "seed") return std::to_string(run.seed);
  if (key == "id") return run.run_id;
  auto it = run.params.find(key);
  if (it == run.params.end()) return std::nullopt;
  return it->second;
}

bool equals(const RunSpec& run, const std::string& key, const std::string& actual, const std::string& wanted) {
  if (key == "noise") return actual == wanted || noise::to_string(run.noise.mode) == wanted;
  auto a = detail::parse_number(actual);
  auto w = detail::parse_number(wanted);
  if (a && w) return *a == *w;  // count=512 also matches 512.0
  return actual == wanted;
}

bool term_holds(const FilterTerm& term, const RunSpec& run) {
  auto actual = field(run, term.key);
  if (!actual) return false;  // a parameter this run does not have
  auto any = [&](auto predicate) { return std::any_of(term.values.begin(), term.values.end(), predicate); };
  switch (term.op) {
    case FilterOp::Eq: return any([&](const std::string& v) { return equals(run, term.key, *actual, v); });
    case FilterOp::Ne: return !any([&](const std::string& v) { return equals(run, term.key, *actual, v); });
    case FilterOp::Contains:
      return any([&](const std::string& v) { return actual->find(v) != std::string::npos; });
    case FilterOp::NotContains:
      return !any([&](const std::string& v) { return actual->find(v) != std::string::npos; });
    default: break;
  }
  auto a = detail::parse_number(*actual);
  if (!a) return false;  // non-numeric value of a parameter
  double w = *detail::parse_number(term.values[0]);
  switch (term.op) {
    case FilterOp::Lt: return *a < w;
    case FilterOp::Le: return *a <= w;
    case FilterOp::Gt: return *a > w;
    case FilterOp::Ge: return *a >= w;
    default: return false;
  }
}

}  // namespace

bool RunFilter::matches(const RunSpec& run) const {
  return std::all_of(terms_.begin(), terms_.end(), [&](const FilterTerm& t) { return term_holds(t, run); });
}

void RunFilter::check_keys(const std::vector<RunSpec>& runs) const {
  std::set<std::string> parameter_names;
  for (const auto& run : runs)
    for (const auto& [name, value] : run.params) parameter_names.insert(name);
  std::vector<std::string> known = builtin_keys();
  known.insert(known.end(), parameter_names.begin(), parameter_names.end());
  for (const auto& term : terms_) {
    if (std::find(known.begin(), known.end(), term.key) != known.end()) continue;
    std::string hint = detail::closest_name(term.key, known);
    throw FilterError("unknown filter key '" + term.key + "' in term '" + term.text + "'" +
                      (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                      "; keys: " + detail::join(known, ", "));
  }
}

RunFilter parse_filter(const std::string& expr) {
  std::vector<FilterTerm> terms;
  if (trim(expr).empty()) return RunFilter();
  std::size_t start = 0;
  while (true) {
    std::size_t comma = expr.find(',', start);
    std::string text = trim(expr.substr(start, comma == std::string::npos ? comma : comma - start));
    if (text.empty()) throw FilterError("empty term in filter \"" + expr + "\" (terms are separated by ',')");
    terms.push_back(parse_term(expr, text));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return RunFilter(std::move(terms));
}

std::vector<RunSpec> filter_runs(const std::vector<RunSpec>& runs, const std::string& expr) {
  RunFilter filter = parse_filter(expr);
  filter.check_keys(runs);
  std::vector<RunSpec> selected;
  for (const auto& run : runs)
    if (filter.matches(run)) selected.push_back(run);
  return selected;
}

}  // namespace scalefuzz::harness
