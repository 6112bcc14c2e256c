// The inline stylesheet of report.html and the outcome palette it shares
// with the inline SVG bars.
#pragma once

#include <string_view>

namespace scalefuzz::harness::html {

extern const std::string_view kStyleSheet;

struct OutcomeStyle {
  std::string_view label;  // "ok", "hang", ..., "unfinished"
  std::string_view fg, bg; // text / fill colour, light background
  int badness;             // which outcome colours a mixed cell
};

// Every outcome label, most benign first; unknown labels get the last entry.
const OutcomeStyle& outcome_style(std::string_view label);
const OutcomeStyle* outcome_styles_begin();
const OutcomeStyle* outcome_styles_end();

}  // namespace scalefuzz::harness::html
