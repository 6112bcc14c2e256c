// scalefuzz: test harness and fuzz framework for MPI race and scale bugs.
#include <string>
#include <vector>

#include "commands.hpp"

int main(int argc, char** argv) {
  return scalefuzz::cli::scalefuzz_main(std::vector<std::string>(argv + 1, argv + argc));
}
