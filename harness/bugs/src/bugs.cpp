#include "scalefuzz/harness/bugs.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>

namespace scalefuzz::harness::bugs {

using detectors::Finding;
using detectors::Severity;
using nlohmann::json;

namespace {

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

std::string basename(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// GCC/Clang clone suffixes name the same source function after optimization.
std::string normalize_function(const std::string& fn) {
  static const std::regex clone(R"((\.(constprop|isra|part|cold|lto_priv|clone|localalias)(\.[0-9]+)?)+$)");
  return std::regex_replace(fn, clone, "");
}

bool is_hex_address(const std::string& s) {
  static const std::regex hex(R"(0x[0-9a-fA-F]+)");
  return std::regex_match(s, hex);
}

// "/dir/module+0x1f3a0" -> "module" (keep_offset false: a function names
// the place) or "module+0x1f3a0" (keep_offset: a frame of a stripped binary
// without a symbol, whose module-relative offset is all that tells two
// places apart; it is stable across runs, ASLR and machines for one build,
// like a line number); anything else unchanged.
std::string strip_offset(const std::string& where, bool keep_offset) {
  static const std::regex module_offset(R"((.*)(\+0x[0-9a-fA-F]+))");
  std::smatch m;
  if (std::regex_match(where, m, module_offset)) return basename(m[1].str()) + (keep_offset ? m[2].str() : "");
  return where;
}

int rank_of(Severity s) { return static_cast<int>(s); }

std::uint64_t fnv1a64(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a 64 offset basis and prime (Fowler/Noll/Vo)
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// "routine_b case3.c:78" -> "case3.c": the file of a normalized location.
std::string file_of(const std::string& location) {
  const auto space = location.rfind(' ');
  std::string place = space == std::string::npos ? location : location.substr(space + 1);
  const auto colon = place.rfind(':');
  return colon == std::string::npos ? place : place.substr(0, colon);
}

// The locations that identify the bug; `key.locations` keep what it showed.
//  - A hang: its localizers land on whichever frame of the blocked stacks
//    they pick (NINJA case 3: "routine_b case3.c:78" one night, its caller
//    "iteration case3.c:91" the next); the hang is one bug per source file.
//  - A finding naming two routines (details.send_routine: a message race):
//    the first, the receive that matched wrongly; the sending routine is
//    whichever of the competing senders this run's message came from.
std::vector<std::string> identifying_locations(const BugKey& key) {
  if (key.detector == "outcome" && key.kind == "hang") {
    std::vector<std::string> files;
    for (const auto& l : key.locations)
      if (auto f = file_of(l); std::find(files.begin(), files.end(), f) == files.end()) files.push_back(f);
    return {files.empty() ? std::string() : files.front()};
  }
  if (key.locations.size() > 1) return {key.locations.front()};
  return key.locations;
}

std::string canonical_text(const BugKey& key) {
  // Unit separators keep fields from running into each other.
  std::string s = "scalefuzz-bug-v1\x1f" + key.detector + "\x1f" + key.kind;
  for (const auto& l : identifying_locations(key))
    if (!l.empty()) s += "\x1f@" + l;
  if (!key.context.empty()) s += "\x1f#" + key.context;
  return s;
}

std::size_t localizer_order(const Roles& roles, const std::string& detector) {
  return static_cast<std::size_t>(std::find(roles.localizing.begin(), roles.localizing.end(), detector) -
                                  roles.localizing.begin());
}

bool is_one_of(const std::vector<FindingKind>& kinds, const Finding& f) {
  return std::find(kinds.begin(), kinds.end(), FindingKind{f.detector, f.kind}) != kinds.end();
}

// A detector some of whose findings can cause a failed run.
bool names_causes(const Roles& roles, const std::string& detector) {
  return std::any_of(roles.root_causes.begin(), roles.root_causes.end(),
                     [&](const FindingKind& k) { return k.detector == detector; });
}

const char* severity_text(Severity s) { return detectors::to_string(s); }

// Among bugs of one severity, causes before symptoms: a message race before
// the hang it causes, a localized failure before other detectors' findings,
// a failed run nothing localized last.
int reading_order(const Roles& roles, const Bug& bug) {
  if (names_causes(roles, bug.key.detector)) return 0;
  if (bug.key.detector != "outcome") return 2;
  return bug.related.empty() && bug.key.locations.empty() ? 3 : 1;
}

}  // namespace

std::string normalize_location(std::string_view location) {
  const std::string text = trim(location);
  if (text.empty() || is_hex_address(text)) return {};
  // "func (file:line)" / "func (module+0xoff)"; the function may itself hold
  // parentheses (C++ signatures), the location part never does.
  static const std::regex func_where(R"((.*) \(([^()]*)\))");
  static const std::regex file_line(R"((.*):([0-9]+))");
  std::smatch m;
  std::string function, where;
  if (std::regex_match(text, m, func_where)) {
    function = normalize_function(trim(m[1].str()));
    where = trim(m[2].str());
  } else if (text.find(' ') == std::string::npos) {
    where = text;  // a bare "file:line" or "module+0xoff"
  } else {
    // Free text: drop addresses and directories word by word.
    std::string out;
    std::size_t pos = 0;
    while (pos < text.size()) {
      const auto end = std::min(text.find(' ', pos), text.size());
      std::string word = text.substr(pos, end - pos);
      pos = end + 1;
      if (word.empty() || is_hex_address(word)) continue;
      word = basename(strip_offset(word, true));
      if (!out.empty()) out += ' ';
      out += word;
    }
    return out;
  }
  std::smatch fl;
  std::string place;
  if (std::regex_match(where, fl, file_line)) place = basename(fl[1].str()) + ":" + fl[2].str();
  if (function == "?" || function == "??") function.clear();
  if (place.empty() && !is_hex_address(where)) place = strip_offset(where, function.empty());
  if (function.empty()) return place;
  return place.empty() ? function : function + " " + place;
}

std::string fingerprint(const BugKey& key) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a64(canonical_text(key))));
  return buf;
}

std::string signature(const BugKey& key) {
  std::string s = key.detector + "/" + key.kind;
  for (std::size_t i = 0; i < key.locations.size(); ++i) s += (i == 0 ? " at " : " and ") + key.locations[i];
  if (!key.context.empty()) s += " [" + key.context + "]";
  return s;
}

BugKey finding_key(const Finding& f) {
  BugKey key{f.detector, f.kind, {}, {}};
  if (auto l = normalize_location(f.location); !l.empty()) key.locations.push_back(std::move(l));
  if (const auto it = f.details.find("send_routine"); it != f.details.end() && it->is_string())
    if (auto l = normalize_location(it->get<std::string>()); !l.empty()) key.locations.push_back(std::move(l));
  if (key.locations.empty())
    if (const auto it = f.details.find("campaign_point"); it != f.details.end() && it->is_string())
      key.context = it->get<std::string>();
  return key;
}

std::vector<std::string> Bug::runs() const {
  std::set<std::string> ids;
  for (const auto& o : occurrences)
    if (!o.run_id.empty()) ids.insert(o.run_id);
  return {ids.begin(), ids.end()};
}

std::vector<std::string> Bug::noise() const {
  std::set<std::string> labels;
  for (const auto& o : occurrences)
    if (!o.noise.empty()) labels.insert(o.noise);
  return {labels.begin(), labels.end()};
}

std::vector<int> Bug::ranks() const {
  std::set<int> all;
  for (const auto& o : occurrences) all.insert(o.ranks.begin(), o.ranks.end());
  return {all.begin(), all.end()};
}

bool Roles::localizes(const std::string& detector) const {
  return std::find(localizing.begin(), localizing.end(), detector) != localizing.end();
}
bool Roles::is_root_cause(const Finding& f) const { return is_one_of(root_causes, f); }
bool Roles::is_race(const Finding& f) const { return is_one_of(races, f); }
bool Roles::is_potential_race(const Finding& f) const { return is_one_of(potential_races, f); }

std::vector<Bug> group_findings(const std::vector<Finding>& findings, const std::vector<RunInfo>& runs,
                                const Roles& roles, const std::string& campaign_seen_at) {
  std::map<std::string, const RunInfo*> run_by_id;
  for (const auto& r : runs) run_by_id.emplace(r.run_id, &r);

  // A failed run's outcome finding and the findings that localize it.
  std::map<std::string, std::size_t> outcome_of_run;
  for (std::size_t i = 0; i < findings.size(); ++i)
    if (findings[i].detector == "outcome" && !findings[i].run_id.empty())
      outcome_of_run.emplace(findings[i].run_id, i);
  std::map<std::size_t, std::vector<std::size_t>> localizers;  // outcome finding -> localizing findings
  std::vector<bool> absorbed(findings.size(), false);
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const auto& f = findings[i];
    if (!roles.localizes(f.detector) || f.run_id.empty()) continue;
    const auto it = outcome_of_run.find(f.run_id);
    if (it == outcome_of_run.end()) continue;
    localizers[it->second].push_back(i);
    absorbed[i] = true;
  }
  for (auto& [outcome, list] : localizers)
    std::stable_sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) {
      return localizer_order(roles, findings[a].detector) < localizer_order(roles, findings[b].detector);
    });

  // A failed run whose blocked receive is where a root cause of the same
  // run (a message race) took the message from (its
  // details.quiet_runs_deliver_it_to names the receive quiet runs deliver it
  // to, and the outcome or one of its localizers is there): the failure is
  // that race's consequence, shown with the race's bug, not as a bug of its
  // own (issue 32: one bug, not three).
  std::map<std::size_t, std::size_t> caused_by;  // outcome finding -> race finding
  std::map<std::string, std::vector<std::size_t>> races_of_run;
  for (std::size_t j = 0; j < findings.size(); ++j)
    if (roles.is_root_cause(findings[j]) && !findings[j].run_id.empty()) races_of_run[findings[j].run_id].push_back(j);
  for (const auto& [run, outcome] : outcome_of_run) {
    const auto run_races = races_of_run.find(run);
    if (run_races == races_of_run.end()) continue;
    std::set<std::string> waits;
    if (auto l = normalize_location(findings[outcome].location); !l.empty()) waits.insert(l);
    if (const auto loc = localizers.find(outcome); loc != localizers.end())
      for (std::size_t j : loc->second)
        if (auto l = normalize_location(findings[j].location); !l.empty()) waits.insert(l);
    for (std::size_t j : run_races->second) {
      if (caused_by.count(outcome)) break;
      const auto& race = findings[j];
      const auto it = race.details.find("quiet_runs_deliver_it_to");
      if (it == race.details.end() || !it->is_array()) continue;
      for (const auto& to : *it)
        if (to.is_object() && to.contains("receive_site") && to["receive_site"].is_string() &&
            waits.count(normalize_location(to["receive_site"].get<std::string>())))
          caused_by[outcome] = j;
    }
  }
  for (const auto& [outcome, race] : caused_by) absorbed[outcome] = true;
  // A potential race at a receive where the same campaign point showed an
  // unintended match is that race seen before it struck: evidence of its bug.
  std::map<std::pair<std::string, std::string>, std::size_t> struck;  // (point, receive) -> unintended match
  for (std::size_t j = 0; j < findings.size(); ++j)
    if (roles.is_race(findings[j]))
      struck.emplace(std::make_pair(findings[j].details.value("campaign_point", ""),
                                    normalize_location(findings[j].location)),
                     j);
  std::map<std::size_t, std::size_t> seen_before;  // potential race -> unintended match
  for (std::size_t j = 0; j < findings.size(); ++j)
    if (roles.is_potential_race(findings[j]))
      if (const auto it = struck.find({findings[j].details.value("campaign_point", ""),
                                       normalize_location(findings[j].location)});
          it != struck.end() && !findings[j].location.empty()) {
        seen_before[j] = it->second;
        absorbed[j] = true;
      }

  std::vector<Bug> bugs;
  std::map<std::string, std::size_t> bug_of_fingerprint;
  std::map<std::size_t, std::size_t> bug_of_finding;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (absorbed[i]) continue;
    const Finding& f = findings[i];
    // A run that never started (issue 32: skipped because the run it needed
    // hung or crashed) is no bug of its own: that run's outcome is.
    if (f.detector == "outcome" && f.kind == "skipped") continue;
    BugKey key = finding_key(f);
    const auto loc = localizers.find(i);
    if (loc != localizers.end() && key.locations.empty())
      for (std::size_t j : loc->second) {
        BugKey lk = finding_key(findings[j]);
        if (lk.locations.empty()) continue;
        key.locations = std::move(lk.locations);
        break;
      }
    const std::string fp = fingerprint(key);
    auto [it, fresh] = bug_of_fingerprint.emplace(fp, bugs.size());
    if (fresh) {
      Bug b;
      b.fingerprint = fp;
      b.signature = signature(key);
      b.key = std::move(key);
      b.severity = f.severity;
      b.title = f.title;
      bugs.push_back(std::move(b));
    }
    Bug& bug = bugs[it->second];
    if (rank_of(f.severity) > rank_of(bug.severity)) bug.severity = f.severity;
    Occurrence o;
    o.run_id = f.run_id;
    o.ranks = f.ranks;
    o.finding = i;
    if (const auto r = run_by_id.find(f.run_id); r != run_by_id.end()) {
      o.nprocs = r->second->nprocs;
      o.noise = r->second->noise;
      o.seed = r->second->seed;
      o.seen_at = r->second->seen_at;
    } else if (f.run_id.empty()) {
      o.seen_at = campaign_seen_at;
    }
    if (!o.seen_at.empty()) {
      if (bug.first_seen.empty() || o.seen_at < bug.first_seen) bug.first_seen = o.seen_at;
      if (o.seen_at > bug.last_seen) bug.last_seen = o.seen_at;
    }
    bug.occurrences.push_back(std::move(o));
    bug_of_finding[i] = it->second;
    if (loc != localizers.end()) bug.related.insert(bug.related.end(), loc->second.begin(), loc->second.end());
  }
  for (const auto& [potential, race] : seen_before)
    if (const auto b = bug_of_finding.find(race); b != bug_of_finding.end()) bugs[b->second].related.push_back(potential);
  for (const auto& [outcome, race] : caused_by) {
    const auto b = bug_of_finding.find(race);
    if (b == bug_of_finding.end()) continue;
    Bug& bug = bugs[b->second];
    bug.related.push_back(outcome);
    if (const auto loc = localizers.find(outcome); loc != localizers.end())
      bug.related.insert(bug.related.end(), loc->second.begin(), loc->second.end());
    if (rank_of(findings[outcome].severity) > rank_of(bug.severity)) bug.severity = findings[outcome].severity;
  }
  std::stable_sort(bugs.begin(), bugs.end(), [&](const Bug& a, const Bug& b) {
    if (a.serious() != b.serious()) return a.serious();
    if (rank_of(a.severity) != rank_of(b.severity)) return rank_of(a.severity) > rank_of(b.severity);
    return reading_order(roles, a) < reading_order(roles, b);
  });
  return bugs;
}

json bug_to_json(const Bug& bug) {
  json occurrences = json::array();
  for (const auto& o : bug.occurrences)
    occurrences.push_back({{"run_id", o.run_id},
                           {"nprocs", o.nprocs},
                           {"noise", o.noise},
                           {"seed", o.seed},
                           {"ranks", o.ranks},
                           {"seen_at", o.seen_at},
                           {"finding", o.finding}});
  return json{{"fingerprint", bug.fingerprint},
              {"signature", bug.signature},
              {"detector", bug.key.detector},
              {"kind", bug.key.kind},
              {"locations", bug.key.locations},
              {"context", bug.key.context},
              {"severity", severity_text(bug.severity)},
              {"title", bug.title},
              {"occurrence_count", bug.occurrences.size()},
              {"runs", bug.runs()},
              {"noise", bug.noise()},
              {"ranks", bug.ranks()},
              {"first_seen", bug.first_seen},
              {"last_seen", bug.last_seen},
              {"occurrences", std::move(occurrences)},
              {"related_findings", bug.related}};
}

BugSummary summarize(const Bug& bug) {
  return {bug.fingerprint, bug.signature, bug.key.detector, bug.key.kind, bug.title, bug.severity,
          bug.occurrences.size(), bug.runs(), bug.first_seen, bug.last_seen};
}

BugSummary bug_summary_from_json(const json& j) {
  auto text = [&](const char* field) {
    const auto it = j.find(field);
    if (it == j.end() || !it->is_string())
      throw std::invalid_argument(std::string("bug without a string '") + field + "'");
    return it->get<std::string>();
  };
  if (!j.is_object()) throw std::invalid_argument("a bug is not a JSON object");
  BugSummary s;
  s.fingerprint = text("fingerprint");
  s.signature = text("signature");
  s.detector = text("detector");
  s.kind = text("kind");
  s.title = text("title");
  const std::string severity = text("severity");
  bool known = false;
  for (auto sev : {Severity::Info, Severity::Warning, Severity::Error})
    if (severity == detectors::to_string(sev)) {
      s.severity = sev;
      known = true;
    }
  if (!known) throw std::invalid_argument("bug " + s.fingerprint + ": unknown severity '" + severity + "'");
  s.occurrences = j.value("occurrence_count", std::size_t{0});
  s.runs = j.value("runs", std::vector<std::string>{});
  s.first_seen = j.value("first_seen", std::string());
  s.last_seen = j.value("last_seen", std::string());
  return s;
}

}  // namespace scalefuzz::harness::bugs
