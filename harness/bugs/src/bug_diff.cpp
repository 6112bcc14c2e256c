#include "scalefuzz/harness/bug_diff.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "scalefuzz/common/enum_names.hpp"

namespace scalefuzz::harness::bugs {

using nlohmann::json;

namespace {

std::string where(const std::string& file, const YAML::Mark& mark) {
  return file + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

[[noreturn]] void fail(const std::string& file, const YAML::Mark& mark, const std::string& message) {
  throw SuppressionError(where(file, mark) + ": " + message);
}

bool valid_date(const std::string& d) {
  static const std::regex date(R"(([0-9]{4})-([0-9]{2})-([0-9]{2}))");
  std::smatch m;
  if (!std::regex_match(d, m, date)) return false;
  const int month = std::stoi(m[2].str()), day = std::stoi(m[3].str());
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

json entry_json(const DiffEntry& e) {
  json j = {{"fingerprint", e.bug.fingerprint}, {"signature", e.bug.signature},
            {"severity", detectors::to_string(e.bug.severity)}, {"title", e.bug.title},
            {"occurrences", e.bug.occurrences}, {"runs", e.bug.runs}, {"first_seen", e.first_seen}};
  if (e.suppression) j["suppressed"] = {{"reason", e.suppression->reason}, {"where", e.suppression->where}};
  return j;
}

bool counts(const DiffEntry& e) { return !e.suppression; }

}  // namespace

std::vector<Suppression> parse_suppressions(const std::string& yaml_text, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::ParserException& e) {
    fail(file, e.mark, e.msg);
  }
  if (!root.IsMap() || !root["suppressions"])
    fail(file, root.Mark(), "expected a map with a 'suppressions' list");
  for (const auto& kv : root)
    if (kv.first.as<std::string>() != "suppressions")
      fail(file, kv.first.Mark(), "unknown key '" + kv.first.as<std::string>() + "' (expected 'suppressions')");
  const YAML::Node list = root["suppressions"];
  if (list.IsNull()) return {};
  if (!list.IsSequence()) fail(file, list.Mark(), "'suppressions' must be a list");
  static const std::regex hex16("[0-9a-f]{16}");
  std::vector<Suppression> out;
  std::map<std::string, std::string> seen;
  for (const auto& item : list) {
    if (!item.IsMap()) fail(file, item.Mark(), "a suppression is a map with fingerprint, reason and optional expires");
    Suppression s;
    s.where = where(file, item.Mark());
    for (const auto& kv : item) {
      const std::string key = kv.first.as<std::string>();
      if (!kv.second.IsScalar()) fail(file, kv.second.Mark(), "'" + key + "' must be a single value");
      const std::string value = kv.second.as<std::string>();
      if (key == "fingerprint") {
        if (!std::regex_match(value, hex16))
          fail(file, kv.second.Mark(), "fingerprint must be 16 lowercase hex digits, got '" + value + "'");
        s.fingerprint = value;
      } else if (key == "reason") {
        s.reason = value;
      } else if (key == "expires") {
        if (!valid_date(value)) fail(file, kv.second.Mark(), "expires must be a date YYYY-MM-DD, got '" + value + "'");
        s.expires = value;
      } else {
        fail(file, kv.first.Mark(), "unknown key '" + key + "' (expected fingerprint, reason, expires)");
      }
    }
    if (s.fingerprint.empty()) fail(file, item.Mark(), "suppression without a fingerprint");
    if (s.reason.empty()) fail(file, item.Mark(), "suppression of " + s.fingerprint + " without a reason");
    if (const auto [it, fresh] = seen.emplace(s.fingerprint, s.where); !fresh)
      fail(file, item.Mark(), "fingerprint " + s.fingerprint + " is already suppressed at " + it->second);
    out.push_back(std::move(s));
  }
  return out;
}

constexpr EnumName<FailOn> kFailOnNames[] = {{FailOn::New, "new"}, {FailOn::Any, "any"}, {FailOn::Never, "never"}};

std::optional<FailOn> parse_fail_on(const std::string& text) { return value_named(kFailOnNames, text); }

const char* to_string(FailOn f) { return name_of(kFailOnNames, f); }

std::size_t BugDiff::failing_new() const {
  return static_cast<std::size_t>(std::count_if(new_bugs.begin(), new_bugs.end(), counts));
}

std::size_t BugDiff::failing_still() const {
  return static_cast<std::size_t>(std::count_if(still_there.begin(), still_there.end(), counts));
}

bool BugDiff::fails(FailOn fail_on) const {
  switch (fail_on) {
    case FailOn::New: return failing_new() > 0;
    case FailOn::Any: return failing_new() + failing_still() > 0;
    case FailOn::Never: return false;
  }
  return false;
}

BugDiff diff_bugs(const std::vector<BugSummary>& old_bugs, const std::vector<BugSummary>& new_bugs,
                  std::vector<Suppression> suppressions, const std::string& today,
                  const std::vector<BugSummary>& earlier_bugs) {
  BugDiff d;
  d.suppressions = std::move(suppressions);
  std::map<std::string, const Suppression*> by_fingerprint;
  for (const auto& s : d.suppressions) {
    by_fingerprint[s.fingerprint] = &s;
    if (s.expires && today > *s.expires) d.expired.push_back(&s);
  }
  std::set<std::string> used;
  auto suppression_of = [&](const std::string& fp) -> const Suppression* {
    const auto it = by_fingerprint.find(fp);
    if (it == by_fingerprint.end()) return nullptr;
    used.insert(fp);
    return it->second;
  };
  // Informational findings (model summaries, plots, matching-order
  // variation) come and go with the bugs they accompany: not compared.
  auto serious = [](const BugSummary& b) { return b.severity != detectors::Severity::Info; };
  std::map<std::string, const BugSummary*> old_by_fp;
  for (const auto& b : old_bugs)
    if (serious(b)) old_by_fp[b.fingerprint] = &b;
  for (const auto& b : earlier_bugs)  // the old night's own entry wins (its first_seen is the latest word)
    if (serious(b)) old_by_fp.emplace(b.fingerprint, &b);
  std::set<std::string> in_new;
  for (const auto& b : new_bugs) {
    if (!serious(b)) {
      ++d.informational;
      continue;
    }
    in_new.insert(b.fingerprint);
    DiffEntry e{b, b.first_seen, suppression_of(b.fingerprint)};
    const auto old = old_by_fp.find(b.fingerprint);
    if (old == old_by_fp.end()) {
      d.new_bugs.push_back(std::move(e));
    } else {
      if (!old->second->first_seen.empty() && (e.first_seen.empty() || old->second->first_seen < e.first_seen))
        e.first_seen = old->second->first_seen;
      d.still_there.push_back(std::move(e));
    }
  }
  for (const auto& b : old_bugs)
    if (serious(b) && !in_new.count(b.fingerprint)) d.gone.push_back({b, b.first_seen, suppression_of(b.fingerprint)});
  for (const auto& s : d.suppressions)
    if (!used.count(s.fingerprint)) d.unused.push_back(&s);
  return d;
}

std::vector<BugSummary> bugs_of_findings(const json& doc) {
  if (!doc.is_object() || doc.value("format", std::string()) != "scalefuzz-findings")
    throw std::invalid_argument("not a scalefuzz findings.json");
  const int version = doc.value("format_version", 0);
  if (version < 2 || !doc.contains("bugs"))
    throw std::invalid_argument("findings format " + std::to_string(version) +
                                " has no bugs (written by an older scalefuzz): rewrite it with 'scalefuzz report DIR'");
  if (version > 2) throw std::invalid_argument("findings format " + std::to_string(version) + " is newer than this scalefuzz");
  std::vector<BugSummary> out;
  std::size_t i = 0;
  for (const auto& b : doc.at("bugs")) {
    try {
      out.push_back(bug_summary_from_json(b));
    } catch (const std::exception& e) {
      throw std::invalid_argument("bugs[" + std::to_string(i) + "]: " + e.what());
    }
    ++i;
  }
  return out;
}

json diff_to_json(const BugDiff& d, FailOn fail_on) {
  auto list = [](const std::vector<DiffEntry>& entries) {
    json a = json::array();
    for (const auto& e : entries) a.push_back(entry_json(e));
    return a;
  };
  auto supp = [](const std::vector<const Suppression*>& items) {
    json a = json::array();
    for (const auto* s : items) {
      json j = {{"fingerprint", s->fingerprint}, {"reason", s->reason}, {"where", s->where}};
      if (s->expires) j["expires"] = *s->expires;
      a.push_back(std::move(j));
    }
    return a;
  };
  return json{{"format", "scalefuzz-diff"},
              {"format_version", 1},
              {"fail_on", to_string(fail_on)},
              {"fails", d.fails(fail_on)},
              {"counts",
               {{"new", d.new_bugs.size()},
                {"still_there", d.still_there.size()},
                {"gone", d.gone.size()},
                {"informational", d.informational},
                {"failing_new", d.failing_new()},
                {"failing_still_there", d.failing_still()}}},
              {"new", list(d.new_bugs)},
              {"still_there", list(d.still_there)},
              {"gone", list(d.gone)},
              {"expired_suppressions", supp(d.expired)},
              {"unused_suppressions", supp(d.unused)}};
}

}  // namespace scalefuzz::harness::bugs
