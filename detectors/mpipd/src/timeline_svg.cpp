// The timeline of paper Figure 7 as SVG: one lane per process, time order to
// the right, the failure events and the successful events just before them.
// Columns follow entry times across ranks; a rank's boxes never share a column.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "classify.hpp"
#include "scalefuzz/detectors/mpipd.hpp"

namespace scalefuzz::detectors::mpipd {

using namespace detail;

namespace {

constexpr int kContextBefore = 3;  // successful events shown before a failure event
constexpr std::size_t kMaxLanes = 64;
constexpr int kLeft = 110, kTop = 80, kLane = 46, kCol = 92, kBoxW = 80, kBoxH = 24;

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

const char* fill_of(Side s) {
  switch (s) {
    case Side::SendPost: return "#9ecae1";
    case Side::RecvPost: return "#a1d99b";
    case Side::Collective: return "#bcbddc";
    case Side::Completion: return "#d9d9d9";
    case Side::Probe: return "#fdd0a2";
    default: return "#f0f0f0";
  }
}

std::string short_label(const Event& e) {
  std::string op = op_label(e);
  if (op.rfind("MPI_", 0) == 0) op = op.substr(4);
  if (e.peer >= 0) {
    const OpClass c = op_class(e);
    const bool send = c == OpClass::Send || c == OpClass::Isend || c == OpClass::Sendrecv || c == OpClass::SendInit;
    op += (send ? " \u2192" : " \u2190") + std::to_string(e.peer);
  } else if (e.peer == trace::kAnySource) {
    op += " \u2190*";
  }
  return op;
}

// Ranks to draw: all of a small run; else faulty ranks, their dependencies and the first others.
std::vector<int> lanes_of(const MpipdResult& res, int nranks, std::size_t& hidden) {
  std::vector<int> lanes;
  if (static_cast<std::size_t>(nranks) <= kMaxLanes) {
    for (int r = 0; r < nranks; ++r) lanes.push_back(r);
  } else {
    std::set<int> pick(res.faulty.begin(), res.faulty.end());
    for (int r : res.faulty)
      if (res.failure_events[static_cast<std::size_t>(r)].ptr >= 0) pick.insert(res.failure_events[static_cast<std::size_t>(r)].ptr);
    for (int r = 0; r < nranks && pick.size() < kMaxLanes; ++r) pick.insert(r);
    lanes.assign(pick.begin(), pick.end());
  }
  hidden = static_cast<std::size_t>(nranks) - lanes.size();
  return lanes;
}

}  // namespace

std::vector<int> timeline_columns(const std::vector<TimelineEvent>& events) {
  std::vector<std::size_t> order(events.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Time order; a rank's events keep their recorded order at equal times.
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return events[a].t_enter_ns < events[b].t_enter_ns; });
  std::vector<int> column(events.size(), 0);
  std::map<int, int> last_of_rank;
  int base = 0, next_base = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto& e = events[order[k]];
    if (k > 0 && e.t_enter_ns != events[order[k - 1]].t_enter_ns) base = next_base;  // a later instant
    int col = base;
    if (auto it = last_of_rank.find(e.rank); it != last_of_rank.end()) col = std::max(col, it->second + 1);
    column[order[k]] = col;
    last_of_rank[e.rank] = col;
    next_base = std::max(next_base, col + 1);
  }
  return column;
}

std::string timeline_svg(const MpipdResult& res, const trace::RunTrace& run, const EventGraph& g) {
  std::size_t hidden = 0;
  const std::vector<int> lanes = lanes_of(res, g.nranks, hidden);
  std::map<int, int> lane_of;
  for (std::size_t i = 0; i < lanes.size(); ++i) lane_of[lanes[i]] = static_cast<int>(i);

  // Events to show per rank: context before fe_p, fe_p, and the call the rank stopped in.
  std::vector<std::pair<int, std::size_t>> shown;
  std::set<std::pair<int, std::size_t>> shown_set;
  for (int r : lanes) {
    const auto& ev = run.ranks[static_cast<std::size_t>(r)].events;
    if (ev.empty()) continue;
    const FailureEvent& f = res.failure_events[static_cast<std::size_t>(r)];
    const std::size_t anchor = f.event.value_or(ev.size() - 1);
    const std::size_t from = anchor >= static_cast<std::size_t>(kContextBefore) ? anchor - kContextBefore : 0;
    for (std::size_t i = from; i <= anchor && i < ev.size(); ++i) shown_set.insert({r, i});
    shown_set.insert({r, ev.size() - 1});
  }
  shown.assign(shown_set.begin(), shown_set.end());
  std::vector<TimelineEvent> boxes;
  for (auto& [r, i] : shown) boxes.push_back({r, run.ranks[static_cast<std::size_t>(r)].events[i].t_enter_ns});
  const std::vector<int> columns = timeline_columns(boxes);
  std::map<std::pair<int, std::size_t>, int> column_of_event;
  for (std::size_t k = 0; k < shown.size(); ++k) column_of_event[shown[k]] = columns[k];
  const int n_columns = columns.empty() ? 0 : *std::max_element(columns.begin(), columns.end()) + 1;
  auto col_at = [&](int r, std::size_t i) { return column_of_event.at({r, i}); };
  auto x_of = [&](int col) { return kLeft + col * kCol; };
  auto y_of = [&](int rank) { return kTop + lane_of[rank] * kLane; };
  std::map<int, PersistentKinds> kinds_cache;
  auto side = [&](int r, const Event& e) {
    auto it = kinds_cache.find(r);
    if (it == kinds_cache.end()) it = kinds_cache.emplace(r, persistent_kinds(run.ranks[static_cast<std::size_t>(r)])).first;
    return side_of(e, it->second);
  };

  const int width = std::max(760, kLeft + (n_columns + 1) * kCol + 40);  // the legend needs ~760
  const int legend_y = kTop + static_cast<int>(lanes.size()) * kLane + 10;
  const int height = legend_y + 70;
  std::set<int> faulty(res.faulty.begin(), res.faulty.end());
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
    << "<defs><marker id=\"ok\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" refY=\"4\" orient=\"auto\">"
       "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#555\"/></marker>"
       "<marker id=\"bad\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" refY=\"4\" orient=\"auto\">"
       "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#d62728\"/></marker></defs>\n";
  s << "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">MPI-PD: " << xml_escape(res.situation_label)
    << " \u2014 faulty processes " << xml_escape(res.faulty.empty() ? "none" : rank_ranges(res.faulty)) << " of "
    << g.nranks << "</text>\n";
  s << "<text x=\"10\" y=\"38\" fill=\"#555\">failure events and the " << kContextBefore
    << " events before them; time order left to right" << (hidden ? ", " + std::to_string(hidden) + " ranks not shown" : "")
    << "</text>\n";

  for (int r : lanes) {
    const int y = y_of(r);
    if (faulty.count(r)) s << "<rect x=\"0\" y=\"" << y - kLane / 2 << "\" width=\"" << width << "\" height=\"" << kLane << "\" fill=\"#fde0dd\"/>\n";
    s << "<line x1=\"" << kLeft - 20 << "\" y1=\"" << y << "\" x2=\"" << width - 20 << "\" y2=\"" << y << "\" stroke=\"#bbb\"/>\n";
    s << "<text x=\"10\" y=\"" << y + 4 << "\"" << (faulty.count(r) ? " fill=\"#d62728\" font-weight=\"bold\"" : "")
      << ">rank " << r << (faulty.count(r) ? " (faulty)" : "") << "</text>\n";
  }

  // Matched messages between shown events: solid arrows.
  for (auto& [r, i] : shown) {
    const EventInfo& info = g.info[static_cast<std::size_t>(r)][i];
    const Event& e = run.ranks[static_cast<std::size_t>(r)].events[i];
    if (info.partner.rank < 0 || side(r, e) != Side::SendPost) continue;
    if (!shown_set.count({info.partner.rank, info.partner.index})) continue;
    const bool bad = info.overflow;
    const int down = y_of(info.partner.rank) >= y_of(r) ? 1 : -1;  // end at the box edges, not centres
    s << "<line x1=\"" << x_of(col_at(r, i)) + kBoxW / 2 << "\" y1=\"" << y_of(r) + down * kBoxH / 2
      << "\" x2=\"" << x_of(col_at(info.partner.rank, info.partner.index)) + kBoxW / 2 << "\" y2=\""
      << y_of(info.partner.rank) - down * kBoxH / 2 << "\" stroke=\""
      << (bad ? "#d62728\" stroke-dasharray=\"5,3" : "#555") << "\" stroke-width=\"1.5\" marker-end=\"url(#"
      << (bad ? "bad" : "ok") << ")\"/>\n";
  }
  // Failed communications: dashed red arrow from fe_p toward the rank it waits on.
  for (int r : lanes) {
    const FailureEvent& f = res.failure_events[static_cast<std::size_t>(r)];
    if (f.kind != FailureKind::Communication || !f.event || f.ptr < 0 || !lane_of.count(f.ptr)) continue;
    if (g.info[static_cast<std::size_t>(r)][*f.event].overflow) continue;  // drawn as a message above
    const int x = x_of(col_at(r, *f.event)) + kBoxW / 2;
    const int y2 = y_of(f.ptr) + (y_of(f.ptr) > y_of(r) ? -kBoxH / 2 : kBoxH / 2);
    s << "<line x1=\"" << x << "\" y1=\"" << y_of(r) << "\" x2=\"" << x + 24 << "\" y2=\"" << y2
      << "\" stroke=\"#d62728\" stroke-dasharray=\"5,3\" stroke-width=\"1.5\" marker-end=\"url(#bad)\"/>\n";
  }
  // Event boxes on top of the arrows.
  for (auto& [r, i] : shown) {
    const Event& e = run.ranks[static_cast<std::size_t>(r)].events[i];
    const EventInfo& info = g.info[static_cast<std::size_t>(r)][i];
    const FailureEvent& f = res.failure_events[static_cast<std::size_t>(r)];
    const bool failure = f.kind == FailureKind::Communication && f.event == i;
    const int x = x_of(col_at(r, i)), y = y_of(r);
    s << "<g><title>" << xml_escape("rank " + std::to_string(r) + " seq " + std::to_string(e.seq) + ": " + op_label(e) +
                                    " peer " + std::to_string(e.peer) + " tag " + std::to_string(e.tag) + " bytes " +
                                    std::to_string(e.bytes) + (failure ? " \u2014 " + f.reason : ""))
      << "</title><rect x=\"" << x << "\" y=\"" << y - kBoxH / 2 << "\" width=\"" << kBoxW << "\" height=\"" << kBoxH
      << "\" rx=\"4\" fill=\"" << fill_of(side(r, e))
      << "\" stroke=\"" << (failure ? "#d62728" : "#666") << "\" stroke-width=\"" << (failure ? 2.5 : 1) << "\""
      << (info.unfinished ? " stroke-dasharray=\"4,2\"" : "") << "/>"
      << "<text x=\"" << x + 4 << "\" y=\"" << y + 4 << "\">" << xml_escape(short_label(e)) << "</text></g>\n";
  }
  // Calculation failures: a red cross after the last completed event.
  for (int r : lanes) {
    const FailureEvent& f = res.failure_events[static_cast<std::size_t>(r)];
    if (f.kind != FailureKind::Calculation) continue;
    const auto& ev = run.ranks[static_cast<std::size_t>(r)].events;
    const int col = ev.empty() || !column_of_event.count({r, ev.size() - 1}) ? n_columns : col_at(r, ev.size() - 1) + 1;
    const int x = x_of(col) + 10, y = y_of(r);
    s << "<g><title>" << xml_escape("rank " + std::to_string(r) + ": " + f.reason) << "</title><path d=\"M" << x - 8 << ","
      << y - 8 << " L" << x + 8 << "," << y + 8 << " M" << x + 8 << "," << y - 8 << " L" << x - 8 << "," << y + 8
      << "\" stroke=\"#d62728\" stroke-width=\"3\"/></g>\n";
  }

  // Legend.
  int lx = 10;
  auto box = [&](const char* fill, const char* stroke, const char* dash, const char* text) {
    s << "<rect x=\"" << lx << "\" y=\"" << legend_y << "\" width=\"22\" height=\"14\" rx=\"3\" fill=\"" << fill
      << "\" stroke=\"" << stroke << "\"" << dash << "/><text x=\"" << lx + 28 << "\" y=\"" << legend_y + 11 << "\">"
      << text << "</text>\n";
    lx += 40 + static_cast<int>(std::string(text).size()) * 6;
  };
  box(fill_of(Side::SendPost), "#666", "", "send");
  box(fill_of(Side::RecvPost), "#666", "", "receive");
  box(fill_of(Side::Collective), "#666", "", "collective");
  box(fill_of(Side::Completion), "#666", "", "wait/test");
  box("#fff", "#d62728\" stroke-width=\"2.5", "", "failure event");
  box("#fff", "#666", " stroke-dasharray=\"4,2\"", "never returned");
  const int ly = legend_y + 36;
  s << "<line x1=\"10\" y1=\"" << ly << "\" x2=\"40\" y2=\"" << ly << "\" stroke=\"#555\" stroke-width=\"1.5\" marker-end=\"url(#ok)\"/>"
    << "<text x=\"46\" y=\"" << ly + 4 << "\">matched message</text>\n"
    << "<line x1=\"170\" y1=\"" << ly << "\" x2=\"200\" y2=\"" << ly << "\" stroke=\"#d62728\" stroke-dasharray=\"5,3\" stroke-width=\"1.5\" marker-end=\"url(#bad)\"/>"
    << "<text x=\"206\" y=\"" << ly + 4 << "\">failed communication (waits on / overflow)</text>\n"
    << "<path d=\"M452," << ly - 6 << " L464," << ly + 6 << " M464," << ly - 6 << " L452," << ly + 6
    << "\" stroke=\"#d62728\" stroke-width=\"3\"/><text x=\"472\" y=\"" << ly + 4 << "\">stopped outside MPI</text>\n"
    << "<rect x=\"640\" y=\"" << ly - 7 << "\" width=\"22\" height=\"14\" fill=\"#fde0dd\"/><text x=\"668\" y=\"" << ly + 4
    << "\">faulty process</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace scalefuzz::detectors::mpipd
