// The whole MPI-PD analysis of one run and its explanation text.
#include <algorithm>
#include <sstream>

#include "classify.hpp"
#include "scalefuzz/common/enum_names.hpp"
#include "scalefuzz/detectors/mpipd.hpp"

namespace scalefuzz::detectors::mpipd {

constexpr EnumName<Situation> kSituationNames[] = {
    {Situation::None, "none"}, {Situation::CalculationFault, "calculation-fault"},
    {Situation::NonOccurredEvent, "non-occurred-event"}, {Situation::Deadlock, "deadlock"},
    {Situation::BufferOverflow, "buffer-overflow"}};

const char* situation_name(Situation s) { return name_of(kSituationNames, s); }

namespace {

std::string list_ranks(const std::vector<int>& ranks) {
  std::string s;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (i) s += i + 1 == ranks.size() ? " and " : ", ";
    s += std::to_string(ranks[i]);
  }
  return s;
}

std::string describe_origin(const Origin& o, const std::vector<FailureEvent>& fe, const std::vector<int>& aborted) {
  std::ostringstream out;
  auto why = [&](int r) { return fe[static_cast<std::size_t>(r)].reason; };
  switch (o.situation) {
    case Situation::CalculationFault:
      if (std::binary_search(aborted.begin(), aborted.end(), o.ranks[0])) {
        out << "Rank " << o.ranks[0] << " " << why(o.ranks[0])
            << ": its own verdict on the run; the ranks still running were stopped by the abort.";
        break;
      }
      out << "Calculation fault: rank " << o.ranks[0] << " terminated outside any communication ("
          << why(o.ranks[0]) << "); the ranks waiting on it failed by propagation.";
      break;
    case Situation::NonOccurredEvent:
      if (o.ranks.size() == 1)
        out << "Non-occurred event: rank " << o.ranks[0] << " waits for a message nobody can be named for ("
            << why(o.ranks[0]) << ").";
      else
        out << "Non-occurred event: rank " << o.ranks[0] << " depends on rank " << o.ranks[1]
            << ", which terminated normally without the matching call (" << why(o.ranks[0])
            << "); either rank " << o.ranks[0] << " communicates redundantly or rank " << o.ranks[1]
            << " misses a call.";
      break;
    case Situation::Deadlock:
      out << "Deadlock: ranks " << list_ranks(o.ranks) << " wait on each other in a cycle (";
      for (std::size_t i = 0; i < o.ranks.size(); ++i) out << (i ? "; " : "") << "rank " << o.ranks[i] << ": " << why(o.ranks[i]);
      out << ").";
      break;
    case Situation::BufferOverflow:
      out << "Buffer overflow: ranks " << list_ranks(o.ranks) << " hold a message longer than its receive buffer (";
      for (std::size_t i = 0; i < o.ranks.size(); ++i) out << (i ? "; " : "") << "rank " << o.ranks[i] << ": " << why(o.ranks[i]);
      out << ").";
      break;
    case Situation::None:
      break;
  }
  return out.str();
}

}  // namespace

MpipdResult localize_failure(const trace::RunTrace& run, const trace::Matching& matching, const MpipdInput& input) {
  auto graph = std::make_shared<const EventGraph>(build_event_graph(run, matching));
  MpipdResult res;
  res.graph = graph;
  res.failure_events = identify_failure_events(*graph, run, input);
  const bool failed = input.outcome != "ok" && input.outcome != "wrong-result";
  res.aborted = failed ? aborting_ranks(run) : std::vector<int>{};
  const std::vector<int>& aborted = res.aborted;
  if (!aborted.empty()) {
    // The aborting ranks decided the run's end; what the others were doing
    // when the launcher killed them follows from it (no backtracking).
    res.faulty = aborted;
    for (int r : aborted) res.origins.push_back({Situation::CalculationFault, {r}});
    for (auto& f : res.failure_events)
      if (f.kind != FailureKind::None && !std::binary_search(aborted.begin(), aborted.end(), f.rank))
        f.reason += " (stopped by the abort of rank " + std::to_string(aborted.front()) + ")";
  } else {
    auto bt = localize_faulty_processes(*graph, run, res.failure_events);
    res.faulty = std::move(bt.faulty);
    res.origins = std::move(bt.origins);
  }
  res.situation = res.origins.empty() ? Situation::None : res.origins.front().situation;
  res.situation_label = situation_name(res.situation);

  std::ostringstream text;
  if (input.outcome == "ok" || input.outcome == "wrong-result") {
    text << "The run did not terminate unexpectedly (outcome " << input.outcome << "): nothing to localize.";
  } else if (res.origins.empty()) {
    text << "The run failed (" << input.outcome << ") but no process has a failure event to backtrack from.";
  } else {
    for (std::size_t i = 0; i < res.origins.size(); ++i) text << (i ? " " : "") << describe_origin(res.origins[i], res.failure_events, aborted);
    std::size_t propagated = 0;
    for (const auto& f : res.failure_events)
      propagated += f.kind != FailureKind::None && !std::binary_search(res.faulty.begin(), res.faulty.end(), f.rank);
    text << " Faulty processes: " << rank_ranges(res.faulty) << " of " << run.ranks.size() << " ranks; " << propagated
         << (aborted.empty() ? " other failed ranks only propagated the error." : " other ranks were stopped by the abort.");
  }
  res.explanation = text.str();
  return res;
}

MpipdResult localize_failure(const trace::RunTrace& run, const MpipdInput& input) {
  return localize_failure(run, trace::match_messages(run), input);
}

}  // namespace scalefuzz::detectors::mpipd
