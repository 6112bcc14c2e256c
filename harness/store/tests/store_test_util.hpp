// Helpers shared by the store tests: fresh temp directories and sample runs.
#pragma once

#include <filesystem>
#include <string>

#include "scalefuzz/harness/run_spec.hpp"
#include "scalefuzz/testing/files.hpp"

namespace scalefuzz::harness::testing {

using scalefuzz::testing::read_file;
using scalefuzz::testing::TempDir;

inline RunSpec sample_spec(const std::string& id, int nprocs = 4, const std::string& noise = "none", int rep = 0) {
  RunSpec s;
  s.run_id = id;
  s.campaign = "demo";
  s.nprocs = nprocs;
  s.scale_role = nprocs < 8 ? "train" : "test";
  s.params = {{"count", "256"}};
  s.noise.mode = scalefuzz::noise::mode_from_string(noise).value();
  if (noise != "none") s.noise.settings = {{"s", "1.0"}};
  s.repetition = rep;
  s.seed = 0xF00DFACECAFEBEEFull;  // above 2^63: must survive as unsigned
  s.argv = {"/bin/app", "--count", "256", "quote\"and\\slash"};
  s.env = {{"OMP_NUM_THREADS", "1"}};
  s.timeout = std::chrono::milliseconds(12345);
  s.check = "regex";
  s.wrong_result_regex = "ERROR.*";
  return s;
}

inline Outcome sample_hang(double wall = 10.5) {
  Outcome o;
  o.kind = OutcomeKind::Hang;
  o.exit_code = -1;
  o.signal = 9;
  o.detail = "timeout after 10s";
  o.wall_seconds = wall;
  o.stacks = {{0, 1001, "#0 MPI_Ssend\n#1 main"}, {1, 1002, "#0 MPI_Ssend <&> \"x\"\n#1 main"}};
  return o;
}

}  // namespace scalefuzz::harness::testing
