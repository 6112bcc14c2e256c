// Runs MPI-PD on one stored run directory and prints the result as JSON
// (situation, faulty set, failure events, explanation); optionally writes the
// timeline SVG. For ad-hoc use and the scenario checks; the harness calls
// the library directly.
//
// Usage: mpipd_analyze RUN_DIR [--outcome hang|crashed|mpi-abort|failed]
//                              [--crashed-rank R --signal S] [--svg FILE]
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "scalefuzz/detectors/mpipd.hpp"

namespace mpipd = scalefuzz::detectors::mpipd;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " RUN_DIR [--outcome KIND] [--crashed-rank R --signal S] [--svg FILE]\n";
    return 2;
  }
  mpipd::MpipdInput input;
  std::string svg_path;
  for (int i = 2; i < argc; i += 2) {
    const std::string key = argv[i];
    if (i + 1 >= argc) {
      std::cerr << argv[0] << ": " << key << " needs a value\n";
      return 2;
    }
    const std::string value = argv[i + 1];
    if (key == "--outcome") input.outcome = value;
    else if (key == "--crashed-rank") input.crashed_rank = std::atoi(value.c_str());
    else if (key == "--signal") input.signal = std::atoi(value.c_str());
    else if (key == "--svg") svg_path = value;
    else {
      std::cerr << argv[0] << ": unknown argument " << key << "\n";
      return 2;
    }
  }
  try {
    auto run = scalefuzz::trace::read_run(argv[1]);
    for (auto& rank : run.ranks)
      if (rank.rank >= 0) scalefuzz::trace::symbolize(argv[1], rank);
    auto result = mpipd::localize_failure(run, input);
    auto findings = mpipd::mpipd_findings(result, run, run.run_id);
    nlohmann::json out = {{"situation", result.situation_label}, {"faulty", result.faulty},
                          {"explanation", result.explanation}};
    if (!findings.empty()) {
      out["details"] = findings[0].details;
      out["location"] = findings[0].location;
      if (!svg_path.empty()) std::ofstream(svg_path) << findings[0].artifacts.at(0).content;
    }
    std::cout << out.dump(2) << "\n";
  } catch (const std::exception& e) {
    std::cerr << argv[0] << ": " << argv[1] << ": " << e.what() << "\n";
    return 3;
  }
  return 0;
}
