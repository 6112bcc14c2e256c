#include <fstream>

#include "scalefuzz/detectors/api/detector.hpp"

namespace scalefuzz::analysis {

RunView::RunView(const RunInfo& run, trace::RunTrace& trace, trace::Symbolizer& symbols)
    : run_(run), trace_(trace), symbols_(symbols) {}

const trace::RunTrace& RunView::symbolized() const {
  if (symbolized_) return trace_;
  symbolized_ = true;
  for (auto& rank : trace_.ranks) {
    if (rank.rank < 0) continue;
    try {
      symbols_.symbolize(run_.dir, rank);
    } catch (const std::exception&) {
      // unsymbolized sites keep their hashes; findings still name ranks
    }
  }
  return trace_;
}

nlohmann::json RunView::code_location(int rank, std::uint32_t site) const {
  const trace::RunTrace& run = symbolized();
  if (rank < 0 || static_cast<std::size_t>(rank) >= run.ranks.size()) return nullptr;
  const auto& rt = run.ranks[static_cast<std::size_t>(rank)];
  if (site >= rt.sites.size()) return nullptr;
  const trace::Frame* f = trace::application_frame(rt.sites[site]);
  if (!f && !rt.sites[site].symbolized.empty()) f = &rt.sites[site].symbolized.front();
  if (!f) return nullptr;
  nlohmann::json j = {{"function", f->function}, {"file", f->file}, {"line", f->line},
                      {"location", trace::format_frame(*f)}, {"rank", rank}, {"site", site}};
  auto snippet = source_snippet(f->file, f->line);
  if (!snippet.empty()) j["source"] = snippet;
  return j;
}

detectors::Finding analysis_error(const std::string& detector, const std::string& run_id, const std::string& what) {
  detectors::Finding f;
  f.detector = detector;
  f.kind = "analysis-error";
  f.severity = detectors::Severity::Warning;
  f.run_id = run_id;
  f.title = run_id + ": " + detector + " failed: " + what;
  return f;
}

nlohmann::json source_snippet(const std::string& file, int line, int context) {
  nlohmann::json lines = nlohmann::json::array();
  if (file.empty() || line <= 0) return lines;
  std::ifstream in(file);
  if (!in) return lines;
  std::string text;
  for (int n = 1; std::getline(in, text) && n <= line + context; ++n)
    if (n >= line - context) lines.push_back({{"line", n}, {"text", text}, {"current", n == line}});
  return lines;
}

}  // namespace scalefuzz::analysis
