#include "text.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <vector>

namespace scalefuzz::harness::text {

namespace {

// Length of the valid UTF-8 sequence starting at in[i], or 0 if invalid.
std::size_t utf8_sequence_length(std::string_view in, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(in[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t len;
  unsigned min_code;
  unsigned code;
  if ((c & 0xE0) == 0xC0) len = 2, min_code = 0x80, code = c & 0x1F;
  else if ((c & 0xF0) == 0xE0) len = 3, min_code = 0x800, code = c & 0x0F;
  else if ((c & 0xF8) == 0xF0) len = 4, min_code = 0x10000, code = c & 0x07;
  else return 0;
  if (i + len > in.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  // Overlong forms, surrogates and code points past U+10FFFF are invalid.
  if (code < min_code || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return len;
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

}  // namespace

std::string sanitize_utf8(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size();) {
    const std::size_t len = utf8_sequence_length(in, i);
    if (len == 0) {
      out += kReplacement;
      ++i;
    } else {
      out.append(in.substr(i, len));
      i += len;
    }
  }
  return out;
}

std::string xml_escape(std::string_view in) {
  const std::string clean = sanitize_utf8(in);
  std::string out;
  out.reserve(clean.size() + clean.size() / 8);
  for (std::size_t i = 0; i < clean.size(); ++i) {
    const char ch = clean[i];
    const auto c = static_cast<unsigned char>(ch);
    // U+FFFE and U+FFFF are valid UTF-8 but not XML characters.
    if (c == 0xEF && clean.compare(i, 2, "\xEF\xBF") == 0 && i + 2 < clean.size() &&
        (static_cast<unsigned char>(clean[i + 2]) & 0xFE) == 0xBE) {
      out += kReplacement;
      i += 2;
      continue;
    }
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if ((c < 0x20 && ch != '\n' && ch != '\t' && ch != '\r') || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  return out;
}

std::string file_tail(const std::filesystem::path& file, std::size_t max_lines) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  constexpr std::streamoff kMaxBytes = 64 * 1024;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff start = size > kMaxBytes ? size - kMaxBytes : 0;
  in.seekg(start);
  std::string data(static_cast<std::size_t>(size - start), '\0');
  in.read(data.data(), static_cast<std::streamsize>(data.size()));
  data.resize(static_cast<std::size_t>(in.gcount()));
  if (max_lines == 0) return {};
  // Walk back over max_lines line breaks (a trailing newline does not count).
  std::size_t end = data.size();
  if (end > 0 && data[end - 1] == '\n') --end;
  std::size_t pos = end, lines = 0;
  while (pos > 0) {
    if (data[pos - 1] == '\n' && ++lines == max_lines) break;
    --pos;
  }
  std::string tail = data.substr(pos);
  if (pos > 0 || start > 0) tail = "...\n" + tail;
  return tail;
}

std::string human_seconds(double seconds) {
  char buf[32];
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  if (seconds < 10) std::snprintf(buf, sizeof buf, "%.2fs", seconds);
  else if (seconds < 60) std::snprintf(buf, sizeof buf, "%.1fs", seconds);
  else if (seconds < 3600) {
    const long s = std::lround(seconds);
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  } else {
    const long m = std::lround(seconds / 60);
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", m / 60, m % 60);
  }
  return buf;
}

std::string fixed3(double value) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f", std::isfinite(value) ? value : 0.0);
  return buf;
}

}  // namespace scalefuzz::harness::text
