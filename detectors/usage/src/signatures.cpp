// Type signatures from ranks/N.types: a datatype key's per-element primitive
// runs, repeated `count` times (MPI-4.0 §3.3.1 type matching: the sequence
// of basic types must agree; byte counts alone do not tell MPI_INT from
// MPI_FLOAT).
#include <string>

#include "scalefuzz/detectors/usage.hpp"

namespace scalefuzz::detectors::usage {

namespace {
constexpr std::size_t kMaxExpandedRuns = 4096;

void add_run(Signature& s, std::uint32_t prim, std::uint64_t n) {
  if (n == 0) return;
  if (!s.runs.empty() && s.runs.back().first == prim) {
    s.runs.back().second += n;
    return;
  }
  s.runs.emplace_back(prim, n);
}
}  // namespace

Signature signature(const trace::RankTrace& rank, std::uint32_t key, std::int64_t count) {
  Signature s;
  if (key == trace::kTypeNone || key == trace::kTypeNull || count < 0) return s;
  const trace::TypeEntry* t = trace::find_type(rank, key);
  if (t == nullptr || !t->signature_known) return s;
  for (const auto& r : t->runs) {
    const trace::TypeEntry* prim = trace::find_type(rank, r.first);
    if (prim != nullptr && prim->name == "MPI_PACKED") return s;  // packed data matches any signature
  }
  s.known = true;
  if (count == 0 || t->runs.empty()) return s;
  if (t->runs.size() == 1) {
    add_run(s, t->runs[0].first, t->runs[0].second * static_cast<std::uint64_t>(count));
    return s;
  }
  for (std::int64_t i = 0; i < count; ++i) {
    for (const auto& r : t->runs) add_run(s, r.first, r.second);
    if (s.runs.size() > kMaxExpandedRuns) {
      s.known = false;
      s.runs.clear();
      return s;
    }
  }
  return s;
}

bool signature_fits(const Signature& a, const Signature& b, bool exact) {
  if (!a.known || !b.known) return true;  // nothing to compare
  std::size_t i = 0;
  for (; i < a.runs.size(); ++i) {
    if (i >= b.runs.size()) return false;
    if (a.runs[i].first != b.runs[i].first) return false;
    if (a.runs[i].second != b.runs[i].second) {
      // The last run of a prefix may be shorter than b's run.
      return !exact && i + 1 == a.runs.size() && a.runs[i].second < b.runs[i].second;
    }
  }
  return !exact || i == b.runs.size();
}

std::string describe_type(const trace::RankTrace& rank, std::uint32_t key, std::int64_t count) {
  std::string name;
  if (key == trace::kTypeNull) name = "MPI_DATATYPE_NULL/invalid";
  else if (const trace::TypeEntry* t = trace::find_type(rank, key)) {
    name = t->name != "-" ? t->name : "derived type";
    if (!t->predefined && t->signature_known && !t->runs.empty()) {
      name += " [";
      for (std::size_t i = 0; i < t->runs.size() && i < 4; ++i) {
        const trace::TypeEntry* p = trace::find_type(rank, t->runs[i].first);
        name += (i ? ", " : "") + std::to_string(t->runs[i].second) + " x " + (p ? p->name : "?");
      }
      name += t->runs.size() > 4 ? ", ...]" : "]";
    }
  } else name = "type " + std::to_string(key);
  return std::to_string(count) + " x " + name;
}

}  // namespace scalefuzz::detectors::usage
