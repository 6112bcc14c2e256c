// MPI-PD result -> Finding (findings.json, report) with the timeline artifact.
#include "classify.hpp"
#include "scalefuzz/common/enum_names.hpp"
#include "scalefuzz/detectors/mpipd.hpp"
#include "scalefuzz/detectors/mpipd_details.hpp"

namespace scalefuzz::detectors::mpipd {

using namespace detail;

namespace {

constexpr EnumName<FailureKind> kFailureKindNames[] = {
    {FailureKind::None, "none"}, {FailureKind::Calculation, "calculation"},
    {FailureKind::Communication, "communication"}};

const char* kind_name(FailureKind k) { return name_of(kFailureKindNames, k); }

// "func (file:line)" of the innermost symbolized frame of a record's call site.
std::string location_of(const trace::RankTrace& rt, const Event& e) {
  if (e.callsite >= rt.sites.size()) return "";
  for (const auto& f : rt.sites[e.callsite].symbolized) {
    if (f.function.empty() && f.file.empty()) continue;
    std::string s = f.function.empty() ? "?" : f.function;
    if (!f.file.empty()) s += " (" + f.file + ":" + std::to_string(f.line) + ")";
    return s;
  }
  return "";
}

nlohmann::json failure_json(const FailureEvent& f, const trace::RunTrace& run, const EventGraph& g) {
  nlohmann::json j = {{"rank", f.rank}, {"kind", kind_name(f.kind)}, {"reason", f.reason}};
  j["depends_on"] = f.ptr >= 0 ? nlohmann::json(f.ptr) : nlohmann::json(nullptr);
  if (f.event && f.rank >= 0 && static_cast<std::size_t>(f.rank) < run.ranks.size()) {
    const auto& rt = run.ranks[static_cast<std::size_t>(f.rank)];
    const Event& e = rt.events[*f.event];
    const EventInfo& info = g.info[static_cast<std::size_t>(f.rank)][*f.event];
    j["event"] = {{"seq", e.seq}, {"op", op_label(e)}, {"peer", e.peer}, {"tag", e.tag}, {"comm", e.comm},
                  {"bytes", e.bytes}, {"callsite", e.callsite}, {"never_returned", info.unfinished},
                  {"isolated", info.isolated}, {"overflow", info.overflow}, {"error", e.error}};
    std::string loc = location_of(rt, e);
    if (!loc.empty()) j["event"]["location"] = loc;
  }
  return j;
}

}  // namespace

std::vector<Finding> mpipd_findings(const MpipdResult& result, const trace::RunTrace& run, const std::string& run_id) {
  if (result.situation == Situation::None) return {};
  std::shared_ptr<const EventGraph> graph = result.graph;
  if (!graph) graph = std::make_shared<const EventGraph>(build_event_graph(run, trace::match_messages(run)));

  Finding f;
  f.detector = "mpipd";
  f.kind = result.situation_label;
  f.severity = Severity::Error;
  f.run_id = run_id;
  f.ranks = result.faulty;
  f.title = "MPI-PD: " + result.situation_label + ", faulty processes " + rank_ranges(result.faulty) + " of " +
            std::to_string(run.ranks.size());
  if (!result.aborted.empty()) {
    const FailureEvent& first = result.failure_events[static_cast<std::size_t>(result.aborted.front())];
    f.title += ": rank " + std::to_string(first.rank) + " " + first.reason;
  }
  for (int r : result.faulty) {
    const FailureEvent& fe = result.failure_events[static_cast<std::size_t>(r)];
    if (!fe.event) continue;
    f.location = location_of(run.ranks[static_cast<std::size_t>(r)], run.ranks[static_cast<std::size_t>(r)].events[*fe.event]);
    if (!f.location.empty()) break;
  }
  nlohmann::json origins = nlohmann::json::array();
  for (const auto& o : result.origins) origins.push_back({{"situation", situation_name(o.situation)}, {"ranks", o.ranks}});
  nlohmann::json failures = nlohmann::json::array();
  for (const auto& fe : result.failure_events)
    if (fe.kind != FailureKind::None) failures.push_back(failure_json(fe, run, *graph));
  f.details = SituationDetails{.situation = result.situation_label,
                               .faulty = result.faulty,
                               .aborted = result.aborted,
                               .origins = origins,
                               .failure_events = failures,
                               .explanation = result.explanation,
                               .code = nullptr};
  f.artifacts.push_back({"mpipd-timeline", "image/svg+xml", timeline_svg(result, run, *graph)});
  return {f};
}

}  // namespace scalefuzz::detectors::mpipd
