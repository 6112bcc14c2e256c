// Schedule exploration's judgement (issue 30): race verdicts from what a
// forced alternative match does to the outcome, and the match coverage of a
// point as a finding. Pure functions; the forced runs themselves are the
// engine's (harness/engine, explore.hpp), the record and coverage the two
// share are the contract's (detectors/api exploration.hpp).
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "scalefuzz/detectors/api/exploration.hpp"
#include "scalefuzz/detectors/races.hpp"

namespace scalefuzz::detectors::races {

// The contract's record and coverage, by the names this library judges them with.
using exploration::add_record;
using exploration::changes_outcome;
using exploration::ExplorationRecord;
using exploration::exploration_record_file;
using exploration::exploration_record_from_json;
using exploration::ExploredAlternative;
using exploration::forced_run_dir;
using exploration::MatchCoverage;
using exploration::MatchTuple;
using exploration::output_change;
using exploration::PotentialTuple;
using exploration::read_exploration_records;
using exploration::to_json;
using exploration::tuple_of;

// "41 potential match tuples, 37 seen, 4 unreachable under this input"
// (and how many the budget left untried), as an Info finding of the point.
Finding coverage_finding(const std::string& point, const MatchCoverage& coverage, const SiteNamer& name_site);

// Per wildcard receive site (point, receiving rank's site) explored:
// Error "race" (kind "harmful-race") for each site where some forced
// alternative that was taken changed the outcome, naming the receive, the
// two sends, the outcome and the forced schedule's replay; Info
// ("benign-nondeterminism: N alternatives explored") where every taken
// alternative left the outcome unchanged. Alternatives whose run did not
// take the forced sender are counted, not judged.
std::vector<Finding> exploration_findings(const std::vector<ExploredAlternative>& explored, const SiteNamer& name_site);

// The receive sites exploration found benign: (campaign point, receive
// routine as named in findings).
std::set<std::pair<std::string, std::string>> benign_sites(const std::vector<Finding>& exploration);

// The races detector's Warnings and Errors (unintended-match,
// potential-race) at a receive site exploration found benign become Info,
// saying so; those at a harmful site stay.
void downgrade_benign(std::vector<Finding>& findings, const std::set<std::pair<std::string, std::string>>& benign);

}  // namespace scalefuzz::detectors::races
