// Message instances and receive rounds of one run (see races.hpp).
#pragma once

#include <vector>

#include "scalefuzz/detectors/races.hpp"

namespace scalefuzz::detectors::races {

// A rank's sends and collectives end its current receive round.
bool ends_round(const trace::Event& e);

// Per rank: the round of every event (index == event index).
std::vector<std::vector<std::uint64_t>> event_rounds(const trace::RunTrace& run);

// Per rank, per event: the index in matching.messages of the message whose
// `side` (send, recv_post or recv_done) that event is; -1 for none.
std::vector<std::vector<long>> message_of_event(const trace::RunTrace& run, const trace::Matching& matching,
                                                trace::EventRef trace::MatchedMessage::*side);

// Every matched message with its instances, in matching.messages order.
std::vector<ObservedMatch> observe_matches(const trace::RunTrace& run, const trace::Matching& matching);

// Sets ObservedMatch::after_own_post (vector clocks over the run; potential.cpp).
void mark_after_post(const trace::RunTrace& run, const trace::Matching& matching, std::vector<ObservedMatch>& obs);

}  // namespace scalefuzz::detectors::races
