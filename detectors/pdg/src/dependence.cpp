#include "scalefuzz/detectors/pdg/dependence.hpp"

#include "scalefuzz/common/enum_names.hpp"

namespace scalefuzz::detectors::pdg {

constexpr EnumName<Dependence> kDependenceNames[] = {
    {Dependence::None, "none"}, {Dependence::Forward, "forward"}, {Dependence::Backward, "backward"},
    {Dependence::Undefined, "undefined"}};

const char* to_string(Dependence d) { return name_of(kDependenceNames, d); }

Dependence table1(PathClass forward, PathClass backward) {
  using enum PathClass;
  switch (forward) {
    case Zero:
      // i cannot reach j: if j can reach i, t_i is ahead and waits for t_j.
      return backward == Zero ? Dependence::None : Dependence::Forward;
    case Partial:
      if (backward == Zero) return Dependence::Backward;
      if (backward == One) return Dependence::Forward;
      return Dependence::Undefined;
    case One:
      // i must reach j: t_j waits for t_i unless j must come back to i too.
      return backward == One ? Dependence::Undefined : Dependence::Backward;
  }
  return Dependence::Undefined;
}

Dependence reversed(Dependence d) {
  switch (d) {
    case Dependence::Forward: return Dependence::Backward;
    case Dependence::Backward: return Dependence::Forward;
    default: return d;
  }
}

}  // namespace scalefuzz::detectors::pdg
