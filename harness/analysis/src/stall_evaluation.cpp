#include "scalefuzz/analysis/stall_evaluation.hpp"

#include "scalefuzz/analysis/registry.hpp"

namespace scalefuzz::analysis {

using detectors::Finding;

bool expected_stall_hang(const harness::RunRecord& run) {
  return run.spec.stall && run.finished() && run.outcome->kind == harness::OutcomeKind::Hang &&
         harness::RunDir(run.dir).stall_fired();
}

void StallEvaluation::add(const harness::RunRecord& run, const std::vector<Finding>& run_findings) {
  const auto& at = run.spec.stall;
  if (!at || !run.finished()) return;
  ++stalls_.injected;
  if (!harness::RunDir(run.dir).stall_fired()) return;  // the rank finished before its K-th call
  ++stalls_.fired;
  if (run.outcome->kind != harness::OutcomeKind::Hang) {
    ++stalls_.fired_without_hang;
    return;
  }
  HungStall c;
  c.run_id = run.spec.run_id;
  c.nprocs = run.spec.nprocs;
  c.rank = at->rank;
  c.call = at->call;
  c.findings = run_findings;
  stalls_.hung.push_back(std::move(c));
}

std::vector<Finding> StallEvaluation::finish(std::ostream* log) const {
  std::vector<Finding> out;
  if (stalls_.injected == 0) return out;
  for (const auto& d : registry())
    if (d.judge_stalls != nullptr)
      for (auto& f : d.judge_stalls(stalls_, log)) out.push_back(std::move(f));
  return out;
}

}  // namespace scalefuzz::analysis
