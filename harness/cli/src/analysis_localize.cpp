#include "analysis_localize.hpp"

#include <cstdio>
#include <map>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <string_view>

#include "scalefuzz/detectors/mpipd.hpp"
#include "scalefuzz/detectors/pdg.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace scalefuzz::cli {

namespace {

using detectors::Finding;
using harness::OutcomeKind;

// The rank a signal killed, from the outcome's detail ("rank 2 SIGSEGV").
std::optional<int> crashed_rank(const harness::Outcome& o) {
  if (o.kind != OutcomeKind::Crashed) return std::nullopt;
  static const std::regex rank_re(R"(rank\s+(\d+))");
  std::smatch m;
  if (std::regex_search(o.detail, m, rank_re)) return std::stoi(m[1].str());
  return std::nullopt;
}

// {file, line, function, location} of a rank's call site, or null.
nlohmann::json code_location(const trace::RunTrace& run, int rank, std::uint32_t site) {
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

void add_mpipd(const harness::RunRecord& run, const trace::RunTrace& trace, std::vector<Finding>& out) {
  const harness::Outcome& o = *run.outcome;
  detectors::mpipd::MpipdInput input;
  input.outcome = harness::to_string(o.kind);
  input.crashed_rank = crashed_rank(o);
  input.signal = o.signal;
  auto result = detectors::mpipd::localize_failure(trace, input);
  for (auto& f : detectors::mpipd::mpipd_findings(result, trace, run.spec.run_id)) {
    // Code location of the first faulty process's failure event.
    for (int r : result.faulty) {
      const auto& fe = result.failure_events[static_cast<std::size_t>(r)];
      if (!fe.event) continue;
      const auto& ev = trace.ranks[static_cast<std::size_t>(r)].events[*fe.event];
      auto loc = code_location(trace, r, ev.callsite);
      if (loc.is_null()) continue;
      f.details["code"] = loc;
      if (f.location.empty()) f.location = loc["location"].get<std::string>();
      break;
    }
    out.push_back(std::move(f));
  }
}

void add_pdg(const harness::RunRecord& run, const trace::RunTrace& trace, std::vector<Finding>& out) {
  detectors::pdg::PdgOptions options;
  // Groups in one loop are ordered by how often they entered their state
  // (detectors/pdg's extension; measured by bench/pdg_stall, README).
  // SCALEFUZZ_PDG_VISIT_COUNTS=0 gives the paper's §4 analysis alone.
  const char* visits = std::getenv("SCALEFUZZ_PDG_VISIT_COUNTS");
  options.resolve_with_visit_counts = visits == nullptr || std::string_view(visits) != "0";
  // Nodes named function:line (the application frame of the call site) with
  // the MPI call, not by the site's hash.
  std::map<std::uint64_t, std::string> site_names;
  for (const auto& rt : trace.ranks)
    for (const auto& site : rt.sites) {
      if (site_names.count(site.stable_hash)) continue;
      const trace::Frame* f = trace::application_frame(site);
      if (!f && !site.symbolized.empty()) f = &site.symbolized.front();
      if (f && !f->function.empty())
        site_names[site.stable_hash] = f->function + " " + std::filesystem::path(f->file).filename().string() + ":" + std::to_string(f->line);
    }
  options.state_label = [site_names](const detectors::pdg::ProgramState& s) -> std::string {
    if (s.is_start) return "start (before the first MPI call)";
    if (auto it = site_names.find(s.stable_hash); it != site_names.end()) return it->second;
    char buf[48];
    std::snprintf(buf, sizeof buf, "MPI call site 0x%016llx", static_cast<unsigned long long>(s.stable_hash));
    return buf;
  };
  auto result = detectors::pdg::analyze_progress(trace, options);
  detectors::pdg::drop_lp_groups_waiting_on_lp(result);
  for (auto& f : detectors::pdg::pdg_findings(result, run.spec.run_id)) {
    const auto& site = f.details["site"];
    if (site.is_object() && site["id"].is_number()) {
      auto loc = code_location(trace, site["rank"].get<int>(), site["id"].get<std::uint32_t>());
      if (!loc.is_null()) {
        f.details["code"] = loc;
        f.location = loc["location"].get<std::string>();
        // The title names the site by its hash; a reader wants the code.
        const std::string hashed = "MPI call site " + site.value("stable_hash", std::string());
        if (auto at = f.title.find(hashed); at != std::string::npos) f.title.replace(at, hashed.size(), f.location);
      }
    }
    out.push_back(std::move(f));
  }
}

}  // namespace

bool needs_localization(OutcomeKind kind) {
  return kind == OutcomeKind::Hang || kind == OutcomeKind::Crashed || kind == OutcomeKind::MpiAbort ||
         kind == OutcomeKind::Failed;
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

std::vector<Finding> localize_run(const harness::RunRecord& run, trace::RunTrace& trace,
                                  const std::set<std::string>& detectors) {
  std::vector<Finding> out;
  if (!run.outcome || !needs_localization(run.outcome->kind)) return out;
  const bool mpipd = detectors.count("mpipd") > 0, pdg = detectors.count("pdg") > 0;
  if (!mpipd && !pdg) return out;
  for (auto& rt : trace.ranks) {
    try {
      trace::symbolize(run.dir, rt);
    } catch (const std::exception&) {
      // unsymbolized sites keep their hashes; the findings still name ranks
    }
  }
  auto guarded = [&](const char* name, auto&& fn) {
    try {
      fn();
    } catch (const std::exception& e) {
      Finding f;
      f.detector = name;
      f.kind = "analysis-error";
      f.severity = detectors::Severity::Warning;
      f.run_id = run.spec.run_id;
      f.title = run.spec.run_id + ": " + name + " failed: " + e.what();
      out.push_back(std::move(f));
    }
  };
  if (mpipd) guarded("mpipd", [&] { add_mpipd(run, trace, out); });
  if (pdg) guarded("pdg", [&] { add_pdg(run, trace, out); });
  return out;
}

std::string describe_localization(const Finding& f) {
  if (f.detector != "mpipd" && f.detector != "pdg") return "";
  std::string out;
  if (f.detector == "mpipd" && f.details.contains("explanation"))
    out += "    " + f.details["explanation"].get<std::string>() + "\n";
  if (f.detector == "pdg" && f.details.contains("eliminated_tasks") &&
      !f.details["eliminated_tasks"].get<std::string>().empty())
    out += "    eliminated by the point-to-point step: " + f.details["eliminated_tasks"].get<std::string>() + "\n";
  if (f.details.contains("code") && f.details["code"].contains("source"))
    for (const auto& l : f.details["code"]["source"])
      out += std::string(l["current"].get<bool>() ? "  > " : "    ") + std::to_string(l["line"].get<int>()) + " | " +
             l["text"].get<std::string>() + "\n";
  return out;
}

}  // namespace scalefuzz::cli
