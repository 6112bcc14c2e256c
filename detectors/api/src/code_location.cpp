#include "scalefuzz/detectors/api/code_location.hpp"

namespace scalefuzz::analysis {

void to_json(nlohmann::json& j, const CodeLocation& c) {
  j = {{"function", c.function}, {"file", c.file}, {"line", c.line},
       {"location", c.location}, {"rank", c.rank}, {"site", c.site}};
  if (!c.source.empty()) j["source"] = c.source;
}

void from_json(const nlohmann::json& j, CodeLocation& c) {
  c.function = j.value("function", std::string());
  c.file = j.value("file", std::string());
  c.line = j.value("line", 0);
  c.location = j.value("location", std::string());
  c.rank = j.value("rank", -1);
  c.site = j.value("site", std::uint32_t{0});
  if (j.contains("source") && j["source"].is_array()) j["source"].get_to(c.source);
}

}  // namespace scalefuzz::analysis
