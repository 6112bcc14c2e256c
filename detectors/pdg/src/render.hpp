#pragma once

#include <string>

#include "scalefuzz/detectors/pdg.hpp"

namespace scalefuzz::detectors::pdg::detail {

std::string state_text(const ProgramState& s, const PdgOptions& options);
std::string render_dot(const PdgResult& result, const PdgOptions& options);

}  // namespace scalefuzz::detectors::pdg::detail
