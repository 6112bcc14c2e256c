#include "scalefuzz/detectors/races.hpp"
#include "scalefuzz/detectors/race_details.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "instances.hpp"

namespace scalefuzz::detectors::races {

namespace {

// The recorder's communicator ids: world 0, self 1, derived ones hashed.
std::string communicator_name(std::uint32_t comm) {
  if (comm == trace::kCommWorld) return "MPI_COMM_WORLD";
  if (comm == trace::kCommSelf) return "MPI_COMM_SELF";
  return "communicator " + std::to_string(comm);
}

using SendKey = std::tuple<int, std::uint64_t, std::uint32_t, std::int32_t, std::uint64_t>;
using RecvKey = std::tuple<int, std::uint64_t, std::uint32_t, std::uint64_t>;
SendKey send_key(const ObservedMatch& m) { return {m.send_rank, m.send_site_hash, m.comm, m.tag, m.send_instance}; }
RecvKey recv_key(const ObservedMatch& m) { return {m.recv_rank, m.recv_site_hash, m.comm, m.recv_instance}; }

bool earlier(const ObservedMatch& a, const ObservedMatch& b) {
  return std::tie(a.recv_done_ns, a.recv_rank, a.recv_seq) < std::tie(b.recv_done_ns, b.recv_rank, b.recv_seq);
}

struct Baseline {
  std::map<SendKey, std::vector<IntendedReceive>> delivered;  // send instance -> where quiet runs received it
  std::map<RecvKey, std::set<SendKey>> taken;                 // receive instance -> what quiet runs gave it
};

nlohmann::json match_json(const ObservedMatch& m, const std::string& recv_name, const std::string& send_name) {
  return {{"receive_site", recv_name},   {"receive_rank", m.recv_rank},     {"receive_instance", m.recv_instance},
          {"receive_round", m.recv_round}, {"send_site", send_name},        {"send_rank", m.send_rank},
          {"send_instance", m.send_instance}, {"tag", m.tag},               {"communicator", m.comm}};
}

}  // namespace

RunMatchSummary summarize_run(std::string run_id, std::string point, std::string noise_label, bool quiet,
                              const trace::RunTrace& run, const trace::Matching& matching) {
  RunMatchSummary out;
  out.run_id = std::move(run_id);
  out.point = std::move(point);
  out.noise_label = std::move(noise_label);
  out.quiet = quiet;
  out.order_hash = matching.order_hash;
  out.unmatched_sends = matching.unmatched_sends.size();
  out.unmatched_recvs = matching.unmatched_recvs.size();
  out.matches = observe_matches(run, matching);
  mark_after_post(run, matching, out.matches);
  out.divergences = lockstep_divergences(out.matches);
  out.probe_matches = probe_matches(run, matching, out.matches);
  if (quiet) {
    out.wildcards = potential_matches(run, matching);
    out.potential = potential_races(out.wildcards);
  }
  return out;
}

bool is_baseline(const RunMatchSummary& r) {
  return r.quiet && r.outcome_ok && r.died.empty() && r.divergences.empty();
}

struct RaceJudge::State {
  RaceReport found;  // unintended matches and potential races so far
  std::map<std::string, Baseline> baselines;
  std::map<std::string, PointDeterminism> points;
  std::map<std::string, std::set<std::uint64_t>> hashes;
  std::set<std::string> racy_points;  // a potential race or unintended match was found there
  std::map<std::pair<std::string, std::uint64_t>, std::size_t> potential_at;  // (point, recv site) -> index
  std::map<std::string, RoundCounts> quiet_rounds;  // per point, pooled over its quiet runs that did not die
};

RaceJudge::RaceJudge() : state_(std::make_unique<State>()) {}
RaceJudge::~RaceJudge() = default;
RaceJudge::RaceJudge(RaceJudge&&) noexcept = default;
RaceJudge& RaceJudge::operator=(RaceJudge&&) noexcept = default;

void RaceJudge::add(const RunMatchSummary& r) {
  State& s = *state_;
  auto& p = s.points[r.point];
  p.point = r.point;
  ++p.runs;
  if (s.hashes[r.point].insert(r.order_hash).second) p.order_runs.push_back(r.run_id);
  if (!r.potential.empty()) s.racy_points.insert(r.point);
  for (const auto& pr : r.potential) {
    auto [it, inserted] = s.potential_at.try_emplace({r.point, pr.actual.recv_site_hash}, s.found.potential.size());
    if (inserted) s.found.potential.push_back({r.run_id, r.point, pr, 0});
    ++s.found.potential[it->second].receives;
  }
  if (r.quiet && r.died.empty()) pool_round_counts(s.quiet_rounds[r.point], round_counts(r.matches));
  if (!is_baseline(r)) return;
  ++p.quiet_runs;
  Baseline& b = s.baselines[r.point];
  for (const auto& m : r.matches) {
    auto& where = b.delivered[send_key(m)];
    IntendedReceive i{m.recv_rank, m.recv_site_hash, m.recv_round, r.run_id, m.recv_site_id};
    if (std::none_of(where.begin(), where.end(), [&](const IntendedReceive& w) {
          return std::tie(w.recv_rank, w.recv_site_hash, w.recv_round) ==
                 std::tie(i.recv_rank, i.recv_site_hash, i.recv_round);
        }))
      where.push_back(i);
    b.taken[recv_key(m)].insert(send_key(m));
  }
}

void RaceJudge::judge(const RunMatchSummary& r) {
  std::map<std::pair<std::uint64_t, std::uint64_t>, UnintendedMatch> found;  // (recv site, send site)
  const ObservedMatch* divergence = nullptr;
  auto start = [&](const ObservedMatch& m) -> UnintendedMatch& {
    auto [it, inserted] = found.try_emplace({m.recv_site_hash, m.send_site_hash});
    if (inserted) {
      it->second.run_id = r.run_id;
      it->second.point = r.point;
      it->second.noise_label = r.noise_label;
      it->second.died = r.died;
      it->second.first = m;
    }
    ++it->second.occurrences;
    return it->second;
  };
  auto base = state_->baselines.find(r.point);
  if (base != state_->baselines.end()) {
    const Baseline& b = base->second;
    for (const auto& m : r.matches) {
      auto taken = b.taken.find(recv_key(m));
      if (taken != b.taken.end() && !taken->second.count(send_key(m)) && (!divergence || earlier(m, *divergence)))
        divergence = &m;
      auto where = b.delivered.find(send_key(m));
      const bool intended = where != b.delivered.end() &&
                            std::any_of(where->second.begin(), where->second.end(), [&](const IntendedReceive& w) {
                              // Any receiving rank: programs that draw their
                              // destinations from the run's seed send one
                              // instance to different ranks in different runs.
                              return w.recv_site_hash == m.recv_site_hash && w.recv_round == m.recv_round;
                            });
      if (intended) continue;
      const bool fresh = !found.count({m.recv_site_hash, m.send_site_hash});
      UnintendedMatch& u = start(m);
      if (fresh || earlier(m, u.first)) {
        u.first = m;
        u.intended = where != b.delivered.end() ? where->second : std::vector<IntendedReceive>{};
      }
    }
  }
  // This run's own divergences (no baseline needed) where the quiet runs said
  // nothing; then those of its sites without lock-step of their own, against
  // the usual numbers of the point's quiet runs.
  std::set<std::pair<std::uint64_t, std::uint64_t>> by_baseline;
  for (const auto& [key, u] : found) by_baseline.insert(key);
  std::vector<LockstepDivergence> divergences = r.divergences;
  if (auto q = state_->quiet_rounds.find(r.point); q != state_->quiet_rounds.end())
    for (auto& d : lockstep_divergences(r.matches, &q->second))
      if (d.from_quiet_runs) divergences.push_back(std::move(d));
  for (const auto& d : divergences) {
    const auto& m = d.match;
    if (!divergence || earlier(m, *divergence)) divergence = &m;
    if (by_baseline.count({m.recv_site_hash, m.send_site_hash})) continue;
    const bool fresh = !found.count({m.recv_site_hash, m.send_site_hash});
    UnintendedMatch& u = start(m);
    if (fresh || earlier(m, u.first)) {
      u.first = m;
      u.lockstep = true;
      u.lockstep_first = d;
    }
  }
  if (!found.empty()) state_->racy_points.insert(r.point);
  for (auto& [key, u] : found) {
    if (divergence) {
      u.has_first_divergence = true;
      u.first_divergence = *divergence;
    }
    state_->found.unintended.push_back(std::move(u));
  }
}

void RaceJudge::forget_baseline(const std::string& point) {
  state_->baselines.erase(point);
  state_->quiet_rounds.erase(point);
}

RaceReport RaceJudge::report() const {
  RaceReport report = state_->found;
  for (const auto& [name, p] : state_->points) {
    PointDeterminism d = p;
    d.distinct_order_hashes = state_->hashes.at(name).size();
    d.racy = state_->racy_points.count(name) > 0;
    report.determinism.push_back(d);
    if (p.quiet_runs == 0) report.points_without_baseline.push_back(name);
  }
  return report;
}

RaceReport detect_races(const std::vector<RunMatchSummary>& runs) {
  RaceJudge judge;
  for (const auto& r : runs) judge.add(r);
  for (const auto& r : runs)
    if (!is_baseline(r)) judge.judge(r);
  return judge.report();
}

std::vector<Finding> race_findings(const RaceReport& report, const SiteNamer& name_site) {
  std::vector<Finding> out;
  for (const auto& u : report.unintended) {
    const auto& m = u.first;
    const std::string recv_name = name_site(u.run_id, m.recv_rank, m.recv_site_id);
    const std::string send_name = name_site(u.run_id, m.send_rank, m.send_site_id);
    const std::string comm_name = communicator_name(m.comm);
    Finding f;
    f.detector = "races";
    f.kind = "unintended-match";
    f.severity = u.died.empty() ? Severity::Error : Severity::Warning;
    f.run_id = u.run_id;
    std::string meant = "a send never received in quiet runs";
    if (!u.intended.empty()) {
      const auto& i = u.intended.front();
      meant = "a send that quiet runs deliver to " +
              (i.recv_site_hash == m.recv_site_hash ? "round " + std::to_string(i.recv_round) + " of the same site"
                                                    : "another receive site") +
              " on rank " + std::to_string(i.recv_rank);
    }
    if (u.lockstep) {
      const auto& d = u.lockstep_first;
      // A phase: the receives posted after all earlier ones completed.
      const std::string unit = d.by_phase ? "phase" : "round";
      const std::string usual_text = std::to_string(d.usual) + " per " + unit + " in " +
                                     std::to_string(d.usual_rounds) + " of " + std::to_string(d.rounds) + " " + unit +
                                     "s" + (d.from_quiet_runs ? " of the quiet runs" : "") +
                                     (d.by_phase ? " (a phase: the receives posted after all earlier ones completed)"
                                                 : "");
      if (d.two_generations)
        meant = "sent after this receive was posted (it answers what rank " + std::to_string(m.recv_rank) +
                " did after posting) while this " + unit + " of the receive site also took an earlier send of rank " +
                std::to_string(m.send_rank) + " from that site: two iterations' messages in one " + unit;
      else if (d.shifted)
        meant = "its message #" + std::to_string(m.send_to_instance) + " to rank " + std::to_string(m.recv_rank) +
                ", while this " + unit + " of the receive site, which takes " + usual_text + ", is due its " +
                (d.usual == 1 ? "message #" + std::to_string(d.window_begin)
                              : "messages #" + std::to_string(d.window_begin) + ".." +
                                    std::to_string(d.window_begin + d.usual - 1)) +
                " (messages of one sender arrive in order): a send of another iteration";
      else
        meant = "its " + std::to_string(d.taken) + " messages from rank " + std::to_string(m.send_rank) +
                " in one " + unit + " of this receive site, which takes " + usual_text + ", while rank " +
                std::to_string(d.short_rank) + " came short: a send of another iteration";
    }
    f.title = "receive #" + std::to_string(m.recv_instance) + " in " + recv_name + " (rank " +
              std::to_string(m.recv_rank) + ", round " + std::to_string(m.recv_round) + ") took rank " +
              std::to_string(m.send_rank) + "'s send #" + std::to_string(m.send_instance) + " from " + send_name +
              " (tag " + std::to_string(m.tag) + ", " + comm_name + "), " + meant +
              (u.noise_label == "none" ? std::string("; seen without noise") : "; exposed under noise '" + u.noise_label + "'") + (u.died.empty() ? "" : " (the run died: " + u.died + "; not trusted as an error)");
    f.location = recv_name;
    f.ranks = {m.send_rank, m.recv_rank};
    f.details = UnintendedMatchDetails{recv_name,       send_name,  m.recv_instance, m.recv_round, m.send_instance,
                                       m.tag,           m.comm,     comm_name,       m.recv_rank,  m.send_rank,
                                       m.recv_seq,      m.send_seq, u.occurrences,   u.noise_label, u.point};
    nlohmann::json intended = nlohmann::json::array();
    for (const auto& i : u.intended)
      intended.push_back({{"receive_rank", i.recv_rank}, {"receive_round", i.recv_round},
                          {"same_receive_site", i.recv_site_hash == m.recv_site_hash},
                          {"receive_site", name_site(i.quiet_run_id, i.recv_rank, i.recv_site_id)}});
    f.details["quiet_runs_deliver_it_to"] = intended;
    f.details["basis"] = u.lockstep ? "lock-step" : "quiet-runs";
    if (u.lockstep)
      f.details["lockstep"] = {{"two_generations", u.lockstep_first.two_generations},
                               {"shifted", u.lockstep_first.shifted},
                               {"window_begin", u.lockstep_first.window_begin},
                               {"send_to_instance", m.send_to_instance},
                               {"taken_in_round", u.lockstep_first.taken},
                               {"usual_per_round", u.lockstep_first.usual},
                               {"rounds_with_usual", u.lockstep_first.usual_rounds},
                               {"rounds", u.lockstep_first.rounds},
                               {"short_rank", u.lockstep_first.short_rank},
                               {"usual_from_quiet_runs", u.lockstep_first.from_quiet_runs},
                               {"by_phase", u.lockstep_first.by_phase},
                               {"receive_phase", m.recv_phase}};
    if (!u.died.empty()) f.details["run_died"] = u.died;
    if (u.has_first_divergence) {
      const auto& d = u.first_divergence;
      f.details["first_divergence"] = match_json(d, name_site(u.run_id, d.recv_rank, d.recv_site_id),
                                                 name_site(u.run_id, d.send_rank, d.send_site_id));
    }
    out.push_back(std::move(f));
  }
  for (const auto& p : report.potential) {
    const auto& a = p.example.actual;
    const std::string recv_name = name_site(p.run_id, a.recv_rank, a.recv_site_id);
    const std::string send_name = name_site(p.run_id, a.send_rank, a.send_site_id);
    const std::string other_name = name_site(p.run_id, p.example.other_rank, p.example.other_site_id);
    Finding f;
    f.detector = "races";
    f.kind = "potential-race";
    f.severity = Severity::Warning;
    f.run_id = p.run_id;
    f.title = "wildcard receive in " + recv_name + " (rank " + std::to_string(a.recv_rank) + ", receive #" +
              std::to_string(a.recv_instance) + ") took rank " + std::to_string(a.send_rank) + "'s send #" +
              std::to_string(a.send_instance) + " but could have taken rank " + std::to_string(p.example.other_rank) +
              "'s send #" + std::to_string(p.example.other_instance) + " from " + other_name +
              (!p.example.other_received ? ", never received in this run"
               : p.example.other_recv_round == a.recv_round
                   ? ", which this run delivered to another receive of the same round (" +
                         std::to_string(a.recv_round) + ")"
                   : ", which this run delivered to round " + std::to_string(p.example.other_recv_round) +
                         " instead of round " + std::to_string(a.recv_round)) +
              ": nothing orders them (tag " + std::to_string(a.tag) + ", " + communicator_name(a.comm) + ")";
    f.location = recv_name;
    f.ranks = {a.send_rank, p.example.other_rank, a.recv_rank};
    f.details = {{"receive_routine", recv_name},
                 {"taken", match_json(a, recv_name, send_name)},
                 {"competitor", {{"send_site", other_name},
                                 {"send_rank", p.example.other_rank},
                                 {"send_instance", p.example.other_instance},
                                 {"received_in_round", p.example.other_received ? nlohmann::json(p.example.other_recv_round)
                                                                                : nlohmann::json(nullptr)}}},
                 {"receives_with_competitors", p.receives},
                 {"campaign_point", p.point}};
    out.push_back(std::move(f));
  }
  for (const auto& p : report.determinism) {
    // On a point where no receive could have matched another message (no
    // potential race, no unintended match) another order changes nothing.
    if (p.distinct_order_hashes <= 1 || !p.racy || p.order_runs.size() < 2) continue;
    Finding f;
    f.detector = "races";
    f.kind = "nondeterministic-matching";
    f.severity = Severity::Info;
    f.run_id = p.order_runs[1];  // the first run that matched in another order than the point's first run
    f.title = "campaign point " + p.point + " matched messages in " + std::to_string(p.distinct_order_hashes) +
              " different orders over " + std::to_string(p.runs) + " runs (run " + p.order_runs[1] +
              " matched otherwise than run " + p.order_runs[0] + ")";
    f.details = NondeterministicMatchingDetails{p.point, p.runs, p.distinct_order_hashes, p.quiet_runs, p.order_runs};
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace scalefuzz::detectors::races
