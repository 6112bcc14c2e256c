// Text from input files, argv or run directories shown on a terminal: control
// characters (ESC, BEL, C1 codes...) and bytes that are not UTF-8 are shown as
// \xNN escapes so they cannot retitle, recolour or garble the user's terminal.
#pragma once

#include <string>
#include <string_view>

namespace scalefuzz::cli {

// Newlines and tabs are kept (messages and listings span lines).
std::string terminal_safe(std::string_view text);

}  // namespace scalefuzz::cli
