// Progress dependence between two tasks t_i (in state i) and t_j (in state
// j): Table 1 (from path probabilities) and Table 2 (union of two tasks'
// views, a bitwise OR of the integer codes of §3.2.3).
#pragma once

#include <cstdint>

#include "scalefuzz/detectors/pdg/markov_chain.hpp"

namespace scalefuzz::detectors::pdg {

enum class Dependence : std::uint8_t {
  None = 0,       // no dependence (different execution branches)
  Forward = 1,    // t_i -pd-> t_j: t_i waits for t_j (t_j progressed less)
  Backward = 2,   // t_j -pd-> t_i
  Undefined = 3,  // "?": the probabilities do not decide, or views conflict
};
const char* to_string(Dependence d);

// Table 1, given the classes of the forward P(i, j) and backward P(j, i) path
// probabilities. The transcription of Table 1 in the shared paper file shows
// row (0, 1) as t_i <-pd- t_j; that contradicts the rule stated in §3.2.2
// ("if the first is P(i,j) = 0, then t_i -pd-> t_j"), the Figure 4 example
// (P(3,5) = 1, P(5,3) = 0 gives c -pd-> b) and the antisymmetry of the other
// rows, so it is implemented as t_i -pd-> t_j.
Dependence table1(PathClass forward, PathClass backward);

// The same dependence seen from t_j's side (i and j swapped).
Dependence reversed(Dependence d);

// Table 2: union of two views of the same ordered pair (i, j).
inline Dependence dependence_union(Dependence a, Dependence b) {
  return static_cast<Dependence>(static_cast<std::uint8_t>(a) | static_cast<std::uint8_t>(b));
}

}  // namespace scalefuzz::detectors::pdg
