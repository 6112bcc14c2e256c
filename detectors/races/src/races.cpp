#include "scalefuzz/detectors/races.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace scalefuzz::detectors::races {

namespace {

const trace::Event& event_at(const trace::RunTrace& run, const trace::EventRef& ref) {
  return run.ranks.at(static_cast<std::size_t>(ref.rank)).events.at(ref.index);
}

std::uint64_t site_hash(const trace::RunTrace& run, int rank, std::uint32_t site) {
  const auto& sites = run.ranks.at(static_cast<std::size_t>(rank)).sites;
  // A site missing from the table (truncated sites file) still gets a key that
  // cannot collide with real stable hashes of other sites on that rank.
  return site < sites.size() ? sites[site].stable_hash : (0xFFFF000000000000ull | site);
}

using PairKey = std::pair<std::uint64_t, std::uint64_t>;  // (recv site, send site)

// The recorder's communicator ids: world 0, self 1, derived ones hashed.
std::string communicator_name(std::uint32_t comm) {
  if (comm == trace::kCommWorld) return "MPI_COMM_WORLD";
  if (comm == trace::kCommSelf) return "MPI_COMM_SELF";
  return "communicator " + std::to_string(comm);
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
  out.matches.reserve(matching.messages.size());
  for (const auto& m : matching.messages) {
    const trace::Event& send = event_at(run, m.send);
    const trace::Event& recv = event_at(run, m.recv_post);
    ObservedMatch o;
    o.send_rank = m.send.rank;
    o.recv_rank = m.recv_post.rank;
    o.send_site_id = send.callsite;
    o.recv_site_id = recv.callsite;
    o.send_site_hash = site_hash(run, m.send.rank, send.callsite);
    o.recv_site_hash = site_hash(run, m.recv_post.rank, recv.callsite);
    o.tag = m.tag;
    o.comm = m.comm;
    o.send_seq = send.seq;
    o.recv_seq = recv.seq;
    out.matches.push_back(o);
  }
  return out;
}

RaceReport detect_races(const std::vector<RunMatchSummary>& runs) {
  RaceReport report;
  std::map<std::string, std::set<PairKey>> baseline;  // point -> routine pairs seen in quiet runs
  std::map<std::string, PointDeterminism> points;
  std::map<std::string, std::set<std::uint64_t>> hashes;
  for (const auto& r : runs) {
    auto& p = points[r.point];
    p.point = r.point;
    ++p.runs;
    hashes[r.point].insert(r.order_hash);
    if (!r.quiet) continue;
    ++p.quiet_runs;
    auto& pairs = baseline[r.point];
    for (const auto& m : r.matches) pairs.insert({m.recv_site_hash, m.send_site_hash});
  }
  for (auto& [name, p] : points) {
    p.distinct_order_hashes = hashes[name].size();
    report.determinism.push_back(p);
    if (p.quiet_runs == 0) report.points_without_baseline.push_back(name);
  }
  for (const auto& r : runs) {
    if (r.quiet) continue;
    auto base = baseline.find(r.point);
    if (base == baseline.end()) continue;
    std::map<PairKey, UnintendedMatch> found;
    for (const auto& m : r.matches) {
      PairKey key{m.recv_site_hash, m.send_site_hash};
      if (base->second.count(key)) continue;
      auto [it, inserted] = found.try_emplace(key);
      UnintendedMatch& u = it->second;
      if (inserted) {
        u.run_id = r.run_id;
        u.point = r.point;
        u.noise_label = r.noise_label;
        u.first = m;
      } else if (std::tie(m.recv_rank, m.recv_seq) < std::tie(u.first.recv_rank, u.first.recv_seq)) {
        u.first = m;
      }
      ++u.occurrences;
    }
    for (auto& [key, u] : found) report.unintended.push_back(std::move(u));
  }
  return report;
}

std::vector<Finding> race_findings(const RaceReport& report, const SiteNamer& name_site) {
  std::vector<Finding> out;
  for (const auto& u : report.unintended) {
    const auto& m = u.first;
    std::string recv_name = name_site(u.run_id, m.recv_rank, m.recv_site_id);
    std::string send_name = name_site(u.run_id, m.send_rank, m.send_site_id);
    Finding f;
    f.detector = "races";
    f.kind = "unintended-match";
    f.severity = Severity::Error;
    f.run_id = u.run_id;
    const std::string comm_name = communicator_name(m.comm);
    f.title = "receive in " + recv_name + " matched a send from " + send_name + " (tag " +
              std::to_string(m.tag) + ", " + comm_name + ", rank " + std::to_string(m.send_rank) + " -> rank " +
              std::to_string(m.recv_rank) + "), a pairing never seen in quiet runs; exposed by noise '" +
              u.noise_label + "'";
    f.location = recv_name;
    f.ranks = {m.send_rank, m.recv_rank};
    f.details = {{"receive_routine", recv_name},
                 {"send_routine", send_name},
                 {"tag", m.tag},
                 {"communicator", m.comm},
                 {"communicator_name", comm_name},
                 {"receiving_rank", m.recv_rank},
                 {"sending_rank", m.send_rank},
                 {"receive_seq", m.recv_seq},
                 {"send_seq", m.send_seq},
                 {"occurrences_in_run", u.occurrences},
                 {"noise", u.noise_label},
                 {"campaign_point", u.point}};
    out.push_back(std::move(f));
  }
  for (const auto& p : report.determinism) {
    if (p.distinct_order_hashes <= 1) continue;
    Finding f;
    f.detector = "races";
    f.kind = "nondeterministic-matching";
    f.severity = Severity::Info;
    f.title = "campaign point " + p.point + " matched messages in " + std::to_string(p.distinct_order_hashes) +
              " different orders over " + std::to_string(p.runs) + " runs";
    f.details = {{"campaign_point", p.point},
                 {"runs", p.runs},
                 {"distinct_order_hashes", p.distinct_order_hashes},
                 {"quiet_runs", p.quiet_runs}};
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace scalefuzz::detectors::races
