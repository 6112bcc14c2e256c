// Markov chains over program states and the path probabilities of AutomaDeD
// (Laguna et al., §3.2): the "sum over all paths" from a source to a
// destination state is the hitting probability of the destination, computed
// by a sparse linear solve so that loops are handled exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace scalefuzz::detectors::pdg {

// An observed transition between two states with its frequency.
struct Transition {
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  std::uint64_t count = 0;
  friend bool operator==(const Transition&, const Transition&) = default;
};

// Sorts `transitions` by (from, to) and sums the counts of repeated pairs into one.
void merge_transitions(std::vector<Transition>& transitions);

// The three columns of each probability in Table 1.
enum class PathClass : std::uint8_t { Zero, Partial, One };
const char* to_string(PathClass c);

// Hitting probabilities of one destination from every state.
struct Hitting {
  std::vector<double> probability;  // P(i ~> dest); 1 for dest itself
  std::vector<PathClass> cls;       // exact class of each probability (see MarkovChain::hitting)
};

// Immutable chain: transition probabilities are count(a,b) / sum_x count(a,x).
// A state with no outgoing transitions is a dead end (the chain stops there).
class MarkovChain {
 public:
  // Throws std::invalid_argument if a transition names a state >= states.
  // Repeated (from, to) pairs are summed; zero counts are ignored.
  MarkovChain(std::size_t states, std::span<const Transition> transitions);

  std::size_t size() const { return out_offset_.size() - 1; }
  double probability(std::uint32_t from, std::uint32_t to) const;

  // For every state i: the probability that the chain started in i ever
  // visits `dest` (one or more steps). Solved as (I - Q) h = b over the states
  // that can reach dest (Q: transitions among them, b: transitions into dest),
  // which is nonsingular because each of them leaks towards dest. The class
  // Zero/One is decided structurally, so it is exact: Zero iff dest is
  // unreachable; One iff no path from i avoids dest and ends in a state that
  // cannot reach dest. Throws std::out_of_range for a bad dest.
  Hitting hitting(std::uint32_t dest) const;

 private:
  std::vector<std::uint32_t> out_offset_, out_to_;
  std::vector<double> out_p_;
  std::vector<std::uint32_t> in_offset_, in_from_;
};

}  // namespace scalefuzz::detectors::pdg
