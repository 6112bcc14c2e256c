#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::harness {

std::string NoiseSpec::label() const {
  std::string out(noise::to_string(mode));
  for (const auto& [key, value] : settings) out += "-" + key + value;
  return out;
}

const char* to_string(OutcomeKind k) {
  switch (k) {
    case OutcomeKind::Ok: return "ok";
    case OutcomeKind::Failed: return "failed";
    case OutcomeKind::Crashed: return "crashed";
    case OutcomeKind::MpiAbort: return "mpi-abort";
    case OutcomeKind::Hang: return "hang";
    case OutcomeKind::WrongResult: return "wrong-result";
    case OutcomeKind::LaunchError: return "launch-error";
  }
  return "?";
}

std::optional<OutcomeKind> outcome_from_string(const std::string& s) {
  for (auto k : {OutcomeKind::Ok, OutcomeKind::Failed, OutcomeKind::Crashed, OutcomeKind::MpiAbort,
                 OutcomeKind::Hang, OutcomeKind::WrongResult, OutcomeKind::LaunchError})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

bool RunDir::has_traces() const {
  std::error_code ec;
  return std::filesystem::exists(ranks_dir(), ec);
}

bool RunDir::has_outcome() const {
  std::error_code ec;
  return std::filesystem::exists(outcome_file(), ec);
}

bool RunDir::stall_fired() const {
  std::error_code ec;
  return std::filesystem::is_regular_file(stall_marker(), ec);
}

bool RunDir::has_ninja_analysis(int nprocs) const {
  std::error_code ec;
  for (int r = 0; r < nprocs; ++r)
    if (!std::filesystem::is_regular_file(ninja_analysis_file(r), ec)) return false;
  return nprocs > 0;
}

}  // namespace scalefuzz::harness
