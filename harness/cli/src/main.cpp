// scalefuzz: test harness and fuzz framework for MPI race and scale bugs.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"

namespace {

void print_overview(std::ostream& out) {
  out << "usage: scalefuzz COMMAND [OPTIONS]\n\n"
         "Launches an MPI application again and again under a recording and noise-injecting\n"
         "PMPI library, stores every run, and reports races, scale anomalies, hangs and crashes.\n\n"
         "commands:\n";
  for (const auto& c : scalefuzz::cli::commands()) {
    std::string name = c.name;
    name.resize(12, ' ');
    out << "  " << name << c.summary << "\n";
  }
  out << "\nRun 'scalefuzz COMMAND --help' for a command's options.\n"
         "Exit codes: 0 nothing found, 1 findings, 2 usage or campaign-file error,\n"
         "3 infrastructure failure (launcher missing, output not writable).\n";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace scalefuzz::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    print_overview(std::cerr);
    return kExitUsage;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_overview(std::cout);
    return kExitOk;
  }
  if (args[0] == "--version") {
    std::cout << "scalefuzz " << SCALEFUZZ_VERSION << "\n";
    return kExitOk;
  }
  for (const auto& c : commands()) {
    if (args[0] != c.name) continue;
    std::vector<std::string> rest(args.begin() + 1, args.end());
    for (const auto& a : rest) {
      if (a == "--") break;
      if (a == "--help" || a == "-h") {
        std::cout << c.usage;
        return kExitOk;
      }
    }
    try {
      return c.main(rest);
    } catch (const UsageError& e) {
      std::cerr << "scalefuzz " << c.name << ": " << e.what() << "\n"
                << "Run 'scalefuzz " << c.name << " --help' for usage.\n";
      return kExitUsage;
    } catch (const InfraError& e) {
      std::cerr << "scalefuzz " << c.name << ": " << e.what() << "\n";
      return kExitInfra;
    } catch (const std::exception& e) {
      std::cerr << "scalefuzz " << c.name << ": internal error: " << e.what() << "\n";
      return kExitInfra;
    }
  }
  std::cerr << "scalefuzz: unknown command '" << args[0] << "'\n\n";
  print_overview(std::cerr);
  return kExitUsage;
}
