#include "scalefuzz/analysis/run_info.hpp"

namespace scalefuzz::analysis {

std::string campaign_point(const harness::RunSpec& spec) {
  std::string p = "np" + std::to_string(spec.nprocs);
  for (const auto& [k, v] : spec.params) p += " " + k + "=" + v;
  return p;
}

RunInfo run_info(const harness::RunRecord& run) {
  RunInfo info;
  info.id = run.spec.run_id;
  info.point = campaign_point(run.spec);
  info.noise = run.spec.noise.label();
  info.quiet = run.spec.noise.mode == noise::Mode::None;
  info.scale_role = run.spec.scale_role;
  info.nprocs = run.spec.nprocs;
  info.argv = run.spec.argv;
  info.params = run.spec.params;
  info.dir = run.dir;
  info.has_traces = harness::RunDir(run.dir).has_traces();
  if (run.outcome)
    info.end = RunEnd{run.outcome->kind, run.outcome->signal, run.outcome->crashed_rank, run.outcome->detail};
  return info;
}

std::vector<RunInfo> run_infos(const std::vector<harness::RunRecord>& runs) {
  std::vector<RunInfo> out;
  out.reserve(runs.size());
  for (const auto& run : runs) out.push_back(run_info(run));
  return out;
}

}  // namespace scalefuzz::analysis
