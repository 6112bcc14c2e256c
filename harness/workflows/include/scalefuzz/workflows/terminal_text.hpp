// The CLI's name for harness::terminal_safe (harness/report), which the
// console progress line uses too.
#pragma once

#include "scalefuzz/harness/terminal_text.hpp"

namespace scalefuzz::workflows {
using harness::terminal_safe;
}  // namespace scalefuzz::workflows
