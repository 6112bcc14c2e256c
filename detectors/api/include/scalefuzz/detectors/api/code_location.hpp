// A finding's code location as RunView::code_location writes it into
// details.code, typed for the report sections that read it back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace scalefuzz::analysis {

// One line of source_snippet().
struct SourceLine {
  int line = 0;
  std::string text;
  bool current = false;  // the location's own line
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SourceLine, line, text, current)

struct CodeLocation {
  std::string function;
  std::string file;
  int line = 0;
  std::string location;  // "function (file:line)"
  int rank = -1;
  std::uint32_t site = 0;
  std::vector<SourceLine> source;  // empty (no key) when the file is unreadable
};
void to_json(nlohmann::json& j, const CodeLocation& c);
void from_json(const nlohmann::json& j, CodeLocation& c);

}  // namespace scalefuzz::analysis
