// The scalefuzz subcommands. Each is one entry of commands(): its name, help
// and a declare function, which declares the command's options once on a
// CLI::App (help text, type and range checks) bound straight into the typed
// options of its workflow, and returns the entry point that calls the
// workflow with them once CLI11 parsed the command line. The entry point
// returns an exit code (exit_codes.hpp) or throws UsageError / InfraError.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "exit_codes.hpp"

namespace CLI {
class App;
}

namespace scalefuzz::cli {

using workflows::InfraError;
using workflows::UsageError;

// What an entry point gets besides the options bound at declaration.
struct Invocation {
  std::string command_line;       // "scalefuzz NAME ARGS..." as typed, stored with a campaign's results
  std::vector<std::string> tail;  // after "--" (commands declared with a tail)
};
using EntryPoint = std::function<int(const Invocation&)>;

struct Command {
  const char* name;
  const char* summary;      // one line for `scalefuzz --help`
  const char* synopsis;     // after "usage: scalefuzz NAME "
  const char* description;  // paragraphs between the usage line and the options
  const char* exit_codes;   // what 0/1/2/3/130 mean for this command (kExitCodeTable)
  bool takes_tail;          // accepts "-- cmd args..." (Invocation::tail)
  EntryPoint (*declare)(CLI::App& options);
};

// The table behind dispatch and --help; only commands that work are listed.
const std::vector<Command>& commands();

// The whole program: dispatch, errors mapped to the exit-code table.
int scalefuzz_main(const std::vector<std::string>& args);

}  // namespace scalefuzz::cli
