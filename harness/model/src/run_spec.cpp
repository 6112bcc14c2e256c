#include "scalefuzz/harness/run_spec.hpp"

#include "scalefuzz/common/enum_names.hpp"
#include "scalefuzz/harness/knob_display.hpp"

namespace scalefuzz::harness {

std::string NoiseSpec::label() const {
  std::string out(noise::to_string(mode));
  for (const auto& [key, value] : settings) out += "-" + key + display_knob_value(mode, key, value);
  return out;
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
