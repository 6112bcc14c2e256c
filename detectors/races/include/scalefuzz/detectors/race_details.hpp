// Typed details of the races findings the report section draws: the
// detector writes them once (to_json, into Finding::details) and the section
// reads them back typed (from_json), so the two cannot drift apart key by key.
// Missing keys read as their defaults (a hand-written or older finding).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace scalefuzz::detectors::races {

// kind "unintended-match": which receive took which send. The finding's
// details hold these keys plus quiet_runs_deliver_it_to, basis, lockstep,
// run_died and first_divergence (written by race_findings, not typed yet).
struct UnintendedMatchDetails {
  std::string receive_routine;
  std::string send_routine;
  std::uint64_t receive_instance = 0;
  std::uint64_t receive_round = 0;
  std::uint64_t send_instance = 0;
  std::int32_t tag = 0;
  std::uint32_t communicator = 0;
  std::string communicator_name;  // "MPI_COMM_WORLD", "communicator 3"; "" = unnamed (show the number)
  int receiving_rank = -1;
  int sending_rank = -1;
  std::uint64_t receive_seq = 0;
  std::uint64_t send_seq = 0;
  std::size_t occurrences_in_run = 0;
  std::string noise;
  std::string campaign_point;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(UnintendedMatchDetails, receive_routine, send_routine,
                                                receive_instance, receive_round, send_instance, tag, communicator,
                                                communicator_name, receiving_rank, sending_rank, receive_seq, send_seq,
                                                occurrences_in_run, noise, campaign_point)

// kind "nondeterministic-matching": a point whose runs matched in several orders.
struct NondeterministicMatchingDetails {
  std::string campaign_point;
  std::size_t runs = 0;
  std::size_t distinct_order_hashes = 0;
  std::size_t quiet_runs = 0;
  std::vector<std::string> first_run_of_each_order;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NondeterministicMatchingDetails, campaign_point, runs,
                                                distinct_order_hashes, quiet_runs, first_run_of_each_order)

}  // namespace scalefuzz::detectors::races
