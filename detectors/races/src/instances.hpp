// Message instances and receive rounds of one run (see races.hpp).
#pragma once

#include <vector>

#include "scalefuzz/detectors/races.hpp"

namespace scalefuzz::detectors::races {

// The stable hash of a rank's call site (a site missing from a truncated
// sites table gets a key no real hash of that rank collides with).
std::uint64_t site_hash(const trace::RunTrace& run, int rank, std::uint32_t site);

// A rank's sends and collectives end its current receive round.
bool ends_round(const trace::Event& e);

// Per rank: the round of every event (index == event index).
std::vector<std::vector<std::uint64_t>> event_rounds(const trace::RunTrace& run);

// Per rank, per event: the index in matching.messages of the message whose
// `side` (send, recv_post or recv_done) that event is; -1 for none.
std::vector<std::vector<long>> message_of_event(const trace::RunTrace& run, const trace::Matching& matching,
                                                trace::EventRef trace::MatchedMessage::*side);

// Per rank, per event: for a send (matched or not), its number among the
// rank's sends from that call site on that communicator with that tag
// (ObservedMatch::send_instance); 0 elsewhere.
std::vector<std::vector<std::uint64_t>> send_instances(const trace::RunTrace& run, const trace::Matching& matching);

// Every matched message with its instances, in matching.messages order.
std::vector<ObservedMatch> observe_matches(const trace::RunTrace& run, const trace::Matching& matching);

// Sets ObservedMatch::after_own_post (vector clocks over the run; potential.cpp).
void mark_after_post(const trace::RunTrace& run, const trace::Matching& matching, std::vector<ObservedMatch>& obs);

// probe_matches (races.hpp) from the run's observed matches, for a caller
// that has them already (summarize_run).
std::vector<ObservedMatch> probe_matches(const trace::RunTrace& run, const trace::Matching& matching,
                                         const std::vector<ObservedMatch>& observed);

}  // namespace scalefuzz::detectors::races
