// "Did you mean": the known name closest to a mistyped word (the unknown-key
// errors of yaml_reader.hpp; the harness's campaign keys, filter keys,
// command-line commands and options).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace scalefuzz::settings {

// The known name closest to `word` by edit distance if it is plausibly a
// typo (at most a third of the letters changed), else "".
std::string closest_name(std::string_view word, const std::vector<std::string>& known);

}  // namespace scalefuzz::settings
