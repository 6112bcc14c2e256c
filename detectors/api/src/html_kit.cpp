#include "scalefuzz/detectors/api/html_kit.hpp"

#include <cmath>
#include <cstdio>

namespace scalefuzz::html_kit {

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

// JSON inside <script>: not only "</script" ends the element early, "<!--"
// followed by "<script" puts the parser into the double-escaped state, where
// the element's own "</script>" no longer closes it and the rest of the page
// becomes script text (HTML Living Standard, "script data double escaped state"). In JSON, < > and &
// appear only inside strings, where their \u escapes mean the same.
std::string script_safe(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<') out += "\\u003c";
    else if (c == '>') out += "\\u003e";
    else if (c == '&') out += "\\u0026";
    else out += c;
  }
  return out;
}

std::string chart_figure(const std::string& id, const std::string& caption, const nlohmann::json& config,
                         int height_px) {
  return "<figure class=\"chart\" data-chart=\"" + xml_escape(id) + "\"><figcaption>" +
         xml_escape(caption) + "</figcaption><div class=\"chart-box\" style=\"height:" +
         std::to_string(height_px) + "px\"><canvas id=\"" + xml_escape(id) +
         "\"></canvas></div><script type=\"application/json\" class=\"chart-config\" data-for=\"" +
         xml_escape(id) + "\">" + script_safe(config.dump()) + "</script></figure>\n";
}

std::string fixed3(double value) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f", std::isfinite(value) ? value : 0.0);
  return buf;
}

std::string svg_element(const std::string& document) {
  const auto begin = document.find("<svg");
  const auto end = document.rfind("</svg>");
  if (begin == std::string::npos || end == std::string::npos || end < begin) return {};
  return document.substr(begin, end + 6 - begin);
}

}  // namespace scalefuzz::html_kit
