// "Did you mean": the known name closest to a mistyped word (campaign keys,
// filter keys, command-line commands and options).
#pragma once

#include "scalefuzz/detectors/api/closest_name.hpp"

namespace scalefuzz::harness {

// The known name closest to `word` by edit distance if it is plausibly a
// typo (at most a third of the letters changed), else "": the settings
// API's, whose unknown-key errors the campaign's share.
using settings::closest_name;

}  // namespace scalefuzz::harness
