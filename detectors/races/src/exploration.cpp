#include "scalefuzz/detectors/exploration.hpp"

#include <map>
#include <tuple>

namespace scalefuzz::detectors::races {

Finding coverage_finding(const std::string& point, const MatchCoverage& coverage, const SiteNamer& name_site) {
  Finding f;
  f.detector = "races";
  f.kind = "match-coverage";
  f.severity = Severity::Info;
  f.title = "campaign point " + point + ": " + std::to_string(coverage.potential_count()) + " potential match tuples, " +
            std::to_string(coverage.seen_count()) + " seen, " + std::to_string(coverage.unreachable_count()) +
            " unreachable under this input" +
            (coverage.untried_count() ? ", " + std::to_string(coverage.untried_count()) + " not tried"
                                      : "");
  nlohmann::json tuples = nlohmann::json::array();
  for (const auto& [t, ex] : coverage.tuples()) {
    const char* state = coverage.seen(t) ? "seen" : coverage.tried(t) ? "unreachable" : "not-tried";
    tuples.push_back({{"receive_rank", t.recv_rank},
                      {"receive_site", name_site(ex.run_id, t.recv_rank, ex.recv_site_id)},
                      {"send_rank", t.send_rank},
                      {"send_site", name_site(ex.run_id, t.send_rank, ex.send_site_id)},
                      {"tag", t.tag},
                      {"state", state}});
  }
  f.details = {{"campaign_point", point},
               {"potential", coverage.potential_count()},
               {"seen", coverage.seen_count()},
               {"unreachable", coverage.unreachable_count()},
               {"not_tried", coverage.untried_count()},
               {"tuples", tuples}};
  return f;
}

namespace {

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace

std::vector<Finding> exploration_findings(const std::vector<ExploredAlternative>& explored,
                                          const SiteNamer& name_site) {
  // Per (point, receiving rank, receive site), in the order first explored.
  using Site = std::tuple<std::string, int, std::uint64_t>;
  std::vector<Site> order;
  std::map<Site, std::vector<const ExploredAlternative*>> by_site;
  for (const auto& a : explored) {
    Site key{a.point, a.receive.recv_rank, a.receive.recv_site_hash};
    auto [it, inserted] = by_site.try_emplace(key);
    if (inserted) order.push_back(key);
    it->second.push_back(&a);
  }
  std::vector<Finding> out;
  for (const auto& key : order) {
    const auto& list = by_site[key];
    std::size_t taken = 0;
    const ExploredAlternative* harmful = nullptr;
    for (const auto* a : list) {
      if (!a->took_alternative) continue;
      ++taken;
      // The first harmful one, preferring a root cause and a shrunk schedule.
      if (changes_outcome(*a) && (!harmful || (a->root_cause && !harmful->root_cause) ||
                                  (!a->minimal_schedule.empty() && harmful->minimal_schedule.empty())))
        harmful = a;
    }
    const ExploredAlternative& first = *list.front();
    const auto& r = (harmful ? *harmful : first).receive;
    const std::string recv_name = name_site(first.base_run_id, r.recv_rank, r.recv_site_id);
    Finding f;
    f.detector = "races";
    f.location = recv_name;
    if (harmful) {
      const auto& a = *harmful;
      const std::string took = name_site(a.base_run_id, r.send_rank, r.send_site_id);
      const std::string forced = name_site(a.base_run_id, a.forced.send_rank, a.forced.send_site_id);
      const std::string outcome =
          a.outcome != a.base_outcome ? a.outcome + (a.outcome_detail.empty() ? "" : " (" + a.outcome_detail + ")")
          : !a.new_usage_errors.empty() ? a.outcome + " with a new usage error (" + a.new_usage_errors.front() + ")"
                                        : "another " + a.outcome + " (" + a.failure_change +
                                              "): the failure depends on this match";
      f.kind = "harmful-race";
      f.severity = Severity::Error;
      f.run_id = a.run_id;
      f.title = "race at receive #" + std::to_string(r.recv_instance) + " in " + recv_name + " (rank " +
                std::to_string(r.recv_rank) + (a.completion_call.empty() ? "" : ", completed by " + a.completion_call) +
                "): taking rank " + std::to_string(a.forced.send_rank) + "'s send #" +
                std::to_string(a.forced.send_instance) + " from " + forced + " instead of rank " +
                std::to_string(r.send_rank) + "'s send #" + std::to_string(r.send_instance) + " from " + took +
                " turns " + a.base_outcome + " into " + outcome +
                (a.root_cause ? "; the root cause of run " + a.base_run_id + "'s " + a.base_outcome : "");
      f.ranks = {r.recv_rank, r.send_rank, a.forced.send_rank};
      f.details = {{"campaign_point", a.point},
                   {"receive_routine", recv_name},
                   {"receiving_rank", r.recv_rank},
                   {"receive_instance", r.recv_instance},
                   {"base_run", a.base_run_id},
                   {"base_send", {{"send_rank", r.send_rank}, {"send_site", took}, {"send_instance", r.send_instance}}},
                   {"forced_send",
                    {{"send_rank", a.forced.send_rank}, {"send_site", forced}, {"send_instance", a.forced.send_instance}}},
                   {"tag", a.forced.tag},
                   {"base_outcome", a.base_outcome},
                   {"outcome", a.outcome},
                   {"outcome_detail", a.outcome_detail},
                   {"new_usage_errors", a.new_usage_errors},
                   {"root_cause", a.root_cause},
                   {"failure_change", a.failure_change},
                   {"completion_call", a.completion_call},
                   {"alternatives_explored", taken},
                   {"replay", join(a.replay_argv)},
                   {"replay_argv", a.replay_argv}};
      if (!a.minimal_schedule.empty()) {
        f.details["minimal_schedule"] = a.minimal_schedule;
        f.details["minimal_replay_argv"] = a.minimal_replay_argv;
        f.title += "; the failure needs only: " + a.minimal_schedule.front() +
                   (a.minimal_schedule.size() > 1 ? " (and " + std::to_string(a.minimal_schedule.size() - 1) + " more)"
                                                  : "");
      }
    } else {
      // A base that had already failed, every alternative forced alone
      // failing the same way, is not benign: a race struck at several
      // receives (a depth-1 forced run fixes one, the next strikes again)
      // or the failure is not this race; nothing is downgraded.
      const bool undecided = first.base_outcome != "ok" && taken > 0;
      f.kind = undecided ? "undecided-race" : "benign-nondeterminism";
      f.severity = undecided ? Severity::Warning : Severity::Info;
      f.run_id = first.base_run_id;
      const std::string explored_text = std::to_string(taken) + " alternative" + (taken == 1 ? "" : "s");
      f.title = "wildcard receive in " + recv_name + " (rank " + std::to_string(r.recv_rank) + "): " +
                (undecided ? "run " + first.base_run_id + " ended " + first.base_outcome + " and each of " +
                                 explored_text +
                                 " forced alone ended the same: undecided (the failure may need several receives "
                                 "forced together: depth > 1, or a base run that ended ok)"
                           : "benign nondeterminism: " + explored_text + " explored, outcome " + first.base_outcome +
                                 " unchanged") +
                (taken < list.size() ? " (" + std::to_string(list.size() - taken) + " forced runs did not take the forced send)"
                                     : "");
      f.ranks = {r.recv_rank};
      f.details = {{"campaign_point", first.point},
                   {"receive_routine", recv_name},
                   {"receiving_rank", r.recv_rank},
                   {"alternatives_explored", taken},
                   {"alternatives_not_taken", list.size() - taken},
                   {"outcome", first.base_outcome}};
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::set<std::pair<std::string, std::string>> benign_sites(const std::vector<Finding>& exploration) {
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& f : exploration)
    if (f.detector == "races" && f.kind == "benign-nondeterminism" &&
        f.details.value("alternatives_explored", std::size_t{0}) > 0)
      out.insert({f.details.value("campaign_point", ""), f.details.value("receive_routine", "")});
  return out;
}

void downgrade_benign(std::vector<Finding>& findings, const std::set<std::pair<std::string, std::string>>& benign) {
  for (auto& f : findings) {
    if (f.detector != "races" || (f.kind != "unintended-match" && f.kind != "potential-race")) continue;
    if (f.severity == Severity::Info) continue;
    if (!benign.count({f.details.value("campaign_point", ""), f.details.value("receive_routine", "")})) continue;
    f.details["severity_before_exploration"] = to_string(f.severity);
    f.severity = Severity::Info;
    f.title += " [benign: every explored alternative of this receive left the outcome unchanged]";
  }
}

}  // namespace scalefuzz::detectors::races
