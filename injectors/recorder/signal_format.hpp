// Number formatting for signal handlers (no locale, no malloc, no stdio):
// each writes the digits at `p` and returns the end.
#pragma once

#include <cstdint>

namespace scalefuzz::inject::signal_format {

inline char* put_hex(char* p, std::uint64_t v) {
  char tmp[20];
  int n = 0;
  do {
    tmp[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v != 0);
  while (n > 0) *p++ = tmp[--n];
  return p;
}

inline char* put_dec(char* p, std::uint64_t v) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) *p++ = tmp[--n];
  return p;
}

}  // namespace scalefuzz::inject::signal_format
