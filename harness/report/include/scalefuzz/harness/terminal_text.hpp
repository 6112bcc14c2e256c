// Text from input files, argv or run directories shown on a terminal: control
// characters (ESC, BEL, C1 codes...) and bytes that are not UTF-8 are shown as
// \xNN escapes so they cannot retitle, recolour or garble the user's terminal.
#pragma once

#include <string>
#include <string_view>

namespace scalefuzz::harness {

// Newlines and tabs are kept (messages and listings span lines).
std::string terminal_safe(std::string_view text);

// Length of the printable UTF-8 sequence starting at text[i] (2..4 bytes), 0
// when there is none (not UTF-8, or a C1 control U+0080..U+009F).
std::size_t printable_utf8_length(std::string_view text, std::size_t i);

}  // namespace scalefuzz::harness
