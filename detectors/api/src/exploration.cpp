// The schedule-exploration contract's values (exploration.hpp): match
// tuples and coverage, the exploration record on disk, and what the engine
// compares between a forced run and its base.
#include "scalefuzz/detectors/api/exploration.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <stdexcept>

namespace scalefuzz::exploration {

MatchTuple tuple_of(const ObservedMatch& m) {
  return {m.recv_rank, m.recv_site_hash, m.send_rank, m.send_site_hash, m.tag};
}

MatchTuple tuple_of(const ObservedMatch& receive, const AlternativeSend& alternative) {
  return {receive.recv_rank, receive.recv_site_hash, alternative.send_rank, alternative.send_site_hash, alternative.tag};
}

std::size_t MatchCoverage::add_seen(const std::string& run_id, const std::vector<ObservedMatch>& matches) {
  std::size_t fresh = 0;
  for (const auto& m : matches) {
    if (!m.wildcard) continue;
    const MatchTuple t = tuple_of(m);
    tuples_.try_emplace(t, Example{run_id, m.recv_site_id, m.send_site_id});
    fresh += seen_.insert(t).second ? 1 : 0;
  }
  return fresh;
}

std::vector<PotentialTuple> MatchCoverage::add_potential(const std::string& run_id,
                                                         const std::vector<WildcardAlternatives>& alternatives) {
  std::vector<PotentialTuple> fresh;
  for (const auto& w : alternatives)
    for (const auto& a : w.alternatives) {
      const MatchTuple t = tuple_of(w.actual, a);
      if (tuples_.try_emplace(t, Example{run_id, w.actual.recv_site_id, a.send_site_id}).second)
        fresh.push_back({run_id, t, w.actual.recv_site_id, a.send_site_id});
    }
  return fresh;
}

void MatchCoverage::add_potential(const PotentialTuple& p) {
  tuples_.try_emplace(p.tuple, Example{p.run_id, p.recv_site_id, p.send_site_id});
}

void MatchCoverage::mark_tried(const MatchTuple& t) { tried_.insert(t); }

std::size_t MatchCoverage::unreachable_count() const {
  return static_cast<std::size_t>(std::count_if(tried_.begin(), tried_.end(), [&](const MatchTuple& t) {
    return tuples_.count(t) && !seen_.count(t);
  }));
}

std::size_t MatchCoverage::untried_count() const {
  std::size_t n = 0;
  for (const auto& [t, example] : tuples_) n += !seen_.count(t) && !tried_.count(t) ? 1 : 0;
  return n;
}

namespace {

nlohmann::json tuple_json(const MatchTuple& t) {
  return {{"receive_rank", t.recv_rank}, {"receive_site_hash", t.recv_site_hash}, {"send_rank", t.send_rank},
          {"send_site_hash", t.send_site_hash}, {"tag", t.tag}};
}

MatchTuple tuple_from(const nlohmann::json& j) {
  return {j.at("receive_rank").get<int>(), j.at("receive_site_hash").get<std::uint64_t>(), j.at("send_rank").get<int>(),
          j.at("send_site_hash").get<std::uint64_t>(), j.at("tag").get<std::int32_t>()};
}

// The fields of a match exploration keeps (identity and naming, not timing).
nlohmann::json match_record(const ObservedMatch& m) {
  return {{"receive_rank", m.recv_rank},     {"receive_site_hash", m.recv_site_hash}, {"receive_site", m.recv_site_id},
          {"receive_instance", m.recv_instance}, {"send_rank", m.send_rank},          {"send_site_hash", m.send_site_hash},
          {"send_site", m.send_site_id},     {"send_instance", m.send_instance},      {"tag", m.tag},
          {"communicator", m.comm},          {"wildcard", m.wildcard}};
}

ObservedMatch match_from(const nlohmann::json& j) {
  ObservedMatch m;
  m.recv_rank = j.at("receive_rank").get<int>();
  m.recv_site_hash = j.at("receive_site_hash").get<std::uint64_t>();
  m.recv_site_id = j.at("receive_site").get<std::uint32_t>();
  m.recv_instance = j.at("receive_instance").get<std::uint64_t>();
  m.send_rank = j.at("send_rank").get<int>();
  m.send_site_hash = j.at("send_site_hash").get<std::uint64_t>();
  m.send_site_id = j.at("send_site").get<std::uint32_t>();
  m.send_instance = j.at("send_instance").get<std::uint64_t>();
  m.tag = j.at("tag").get<std::int32_t>();
  m.comm = j.at("communicator").get<std::uint32_t>();
  m.wildcard = j.at("wildcard").get<bool>();
  return m;
}

}  // namespace

nlohmann::json to_json(const ExplorationRecord& record) {
  nlohmann::json explored = nlohmann::json::array();
  for (const auto& a : record.explored)
    explored.push_back({{"base_run", a.base_run_id},
                        {"run", a.run_id},
                        {"receive", match_record(a.receive)},
                        {"forced", {{"send_rank", a.forced.send_rank},
                                    {"send_site_hash", a.forced.send_site_hash},
                                    {"send_site", a.forced.send_site_id},
                                    {"send_instance", a.forced.send_instance},
                                    {"tag", a.forced.tag},
                                    {"received_in_base_run", a.forced.received}}},
                        {"base_outcome", a.base_outcome},
                        {"outcome", a.outcome},
                        {"outcome_detail", a.outcome_detail},
                        {"new_usage_errors", a.new_usage_errors},
                        {"took_alternative", a.took_alternative},
                        {"replay_argv", a.replay_argv},
                        {"minimal_schedule", a.minimal_schedule},
                        {"minimal_replay_argv", a.minimal_replay_argv},
                        {"root_cause", a.root_cause},
                        {"failure_change", a.failure_change},
                        {"completion_call", a.completion_call}});
  nlohmann::json tried = nlohmann::json::array(), seen = nlohmann::json::array();
  for (const auto& t : record.tried) tried.push_back(tuple_json(t));
  for (const auto& [run, m] : record.forced_matches) {
    auto j = match_record(m);
    j["run"] = run;
    seen.push_back(std::move(j));
  }
  nlohmann::json potential = nlohmann::json::array();
  for (const auto& p : record.forced_potential) {
    auto j = tuple_json(p.tuple);
    j["run"] = p.run_id;
    j["receive_site"] = p.recv_site_id;
    j["send_site"] = p.send_site_id;
    potential.push_back(std::move(j));
  }
  return {{"point", record.point},
          {"runs", record.runs},
          {"budget_exhausted", record.budget_exhausted},
          {"candidates", record.candidates},
          {"distinct_candidates", record.distinct_candidates},
          {"explored", explored},
          {"tried", tried},
          {"forced_matches", seen},
          {"forced_potential", potential}};
}

ExplorationRecord exploration_record_from_json(const nlohmann::json& j) {
  try {
    ExplorationRecord r;
    r.point = j.at("point").get<std::string>();
    r.runs = j.at("runs").get<std::size_t>();
    r.budget_exhausted = j.at("budget_exhausted").get<bool>();
    r.candidates = j.value("candidates", std::size_t{0});  // absent before 2026-11-28
    r.distinct_candidates = j.value("distinct_candidates", std::size_t{0});
    for (const auto& e : j.at("explored")) {
      ExploredAlternative a;
      a.point = r.point;
      a.base_run_id = e.at("base_run").get<std::string>();
      a.run_id = e.at("run").get<std::string>();
      a.receive = match_from(e.at("receive"));
      const auto& f = e.at("forced");
      a.forced.send_rank = f.at("send_rank").get<int>();
      a.forced.send_site_hash = f.at("send_site_hash").get<std::uint64_t>();
      a.forced.send_site_id = f.at("send_site").get<std::uint32_t>();
      a.forced.send_instance = f.at("send_instance").get<std::uint64_t>();
      a.forced.tag = f.at("tag").get<std::int32_t>();
      a.forced.received = f.at("received_in_base_run").get<bool>();
      a.base_outcome = e.at("base_outcome").get<std::string>();
      a.outcome = e.at("outcome").get<std::string>();
      a.outcome_detail = e.at("outcome_detail").get<std::string>();
      a.new_usage_errors = e.at("new_usage_errors").get<std::vector<std::string>>();
      a.took_alternative = e.at("took_alternative").get<bool>();
      a.replay_argv = e.at("replay_argv").get<std::vector<std::string>>();
      a.minimal_schedule = e.at("minimal_schedule").get<std::vector<std::string>>();
      a.minimal_replay_argv = e.at("minimal_replay_argv").get<std::vector<std::string>>();
      a.root_cause = e.at("root_cause").get<bool>();
      a.failure_change = e.value("failure_change", std::string{});  // absent in records before it
      a.completion_call = e.value("completion_call", std::string{});
      r.explored.push_back(std::move(a));
    }
    for (const auto& t : j.at("tried")) r.tried.push_back(tuple_from(t));
    for (const auto& m : j.at("forced_matches")) r.forced_matches.push_back({m.at("run").get<std::string>(), match_from(m)});
    if (j.contains("forced_potential"))  // absent before 2026-11-28 14:00
      for (const auto& p : j.at("forced_potential"))
        r.forced_potential.push_back({p.at("run").get<std::string>(), tuple_from(p), p.at("receive_site").get<std::uint32_t>(),
                                      p.at("send_site").get<std::uint32_t>()});
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("exploration record: ") + e.what());
  }
}

std::filesystem::path exploration_dir(const std::filesystem::path& out_dir) { return out_dir / "explore"; }

std::filesystem::path exploration_record_file(const std::filesystem::path& out_dir, const std::string& point) {
  std::string name;
  for (char ch : point) name += std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-' ? ch : '_';
  return exploration_dir(out_dir) / (name + ".json");
}

std::filesystem::path forced_run_dir(const std::filesystem::path& out_dir, const std::string& run_id) {
  return exploration_dir(out_dir) / "runs" / run_id;
}

std::vector<ExplorationRecord> read_exploration_records(const std::filesystem::path& out_dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(exploration_dir(out_dir), ec))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<ExplorationRecord> out;
  for (const auto& file : files) {
    std::ifstream in(file);
    try {
      out.push_back(exploration_record_from_json(nlohmann::json::parse(in)));
    } catch (const std::exception& e) {
      throw std::runtime_error(file.string() + ": " + e.what());
    }
  }
  return out;
}

void add_record(MatchCoverage& coverage, const ExplorationRecord& record) {
  for (const auto& t : record.tried) coverage.mark_tried(t);
  for (const auto& [run, m] : record.forced_matches) coverage.add_seen(run, {m});
  for (const auto& p : record.forced_potential) coverage.add_potential(p);
}

bool changes_outcome(const ExploredAlternative& a) {
  return a.outcome != a.base_outcome || !a.new_usage_errors.empty() || !a.failure_change.empty();
}

namespace {

std::string quoted_line(const std::vector<std::string>& lines, std::size_t i) {
  if (i >= lines.size()) return "(no line)";
  const std::string& l = lines[i];
  return "'" + (l.size() > 80 ? l.substr(0, 77) + "..." : l) + "'";
}

}  // namespace

namespace {

// A line as numbers (a digit, then digits and points) and the text between
// them: "wrong=3 in 0.52 s" is "wrong=", "3", " in ", "0.52", " s".
std::vector<std::string> tokens_of(const std::string& line) {
  std::vector<std::string> out;
  const auto digit = [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; };
  for (std::size_t i = 0; i < line.size();) {
    std::size_t j = i + 1;
    if (digit(line[i]))
      while (j < line.size() && (digit(line[j]) || line[j] == '.')) ++j;
    else
      while (j < line.size() && !digit(line[j])) ++j;
    out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

// Whether the forced run's line differs from the base's in a token every
// control repeats; a line the controls split differently is all timing.
bool stable_tokens_differ(const std::vector<std::vector<std::string>>& controls, std::size_t line,
                          const std::string& base, const std::string& forced) {
  const auto b = tokens_of(base), f = tokens_of(forced);
  std::vector<bool> stable(b.size(), true);
  for (const auto& c : controls) {
    const auto t = tokens_of(c[line]);
    if (t.size() != b.size()) return false;
    for (std::size_t k = 0; k < b.size(); ++k) stable[k] = stable[k] && t[k] == b[k];
  }
  const bool all_stable = std::all_of(stable.begin(), stable.end(), [](bool s) { return s; });
  if (f.size() != b.size()) return all_stable;  // a repeated line split otherwise; else unknown: timing
  for (std::size_t k = 0; k < b.size(); ++k)
    if (stable[k] && f[k] != b[k]) return true;
  return false;
}

}  // namespace

std::string output_change(const std::vector<std::string>& base, const std::vector<std::vector<std::string>>& controls,
                          const std::vector<std::string>& forced) {
  if (controls.empty()) return "";
  for (const auto& c : controls)
    if (c.size() != base.size()) return "";
  for (std::size_t i = 0; i < std::max(base.size(), forced.size()); ++i) {
    // A line more or less is a change (the controls repeat the line count).
    const bool both = i < base.size() && i < forced.size();
    if (both && (base[i] == forced[i] || !stable_tokens_differ(controls, i, base[i], forced[i]))) continue;
    return "stdout line " + std::to_string(i + 1) + ": " + quoted_line(base, i) + " became " + quoted_line(forced, i);
  }
  return "";
}

}  // namespace scalefuzz::exploration
