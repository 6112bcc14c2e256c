#include "scalefuzz/harness/terminal_text.hpp"

#include <cstdio>

namespace scalefuzz::harness {

namespace {

void append_escape(std::string& out, unsigned char byte) {
  char buf[5];
  std::snprintf(buf, sizeof buf, "\\x%02X", byte);
  out += buf;
}

}  // namespace

std::size_t printable_utf8_length(std::string_view text, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(text[i]);
  std::size_t n = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF)
    n = 2;
  else if (b0 >= 0xE0 && b0 <= 0xEF)
    n = 3;
  else if (b0 >= 0xF0 && b0 <= 0xF4)
    n = 4;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  const auto b1 = static_cast<unsigned char>(text[i + 1]);
  if (b0 == 0xE0 && b1 < 0xA0) return 0;  // overlong
  if (b0 == 0xED && b1 > 0x9F) return 0;  // surrogate
  if (b0 == 0xF0 && b1 < 0x90) return 0;  // overlong
  if (b0 == 0xF4 && b1 > 0x8F) return 0;  // beyond U+10FFFF
  if (b0 == 0xC2 && b1 < 0xA0) return 0;  // C1 controls U+0080..U+009F: terminals act on them
  return n;
}

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7F)) {
      out += static_cast<char>(c);
      ++i;
    } else if (std::size_t n = c >= 0x80 ? printable_utf8_length(text, i) : 0; n > 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      append_escape(out, c);
      ++i;
    }
  }
  return out;
}

}  // namespace scalefuzz::harness
