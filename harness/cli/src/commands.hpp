// The scalefuzz subcommands. Each is one entry of commands(): its name, help
// and options (declared once, on a CLI::App, with help text, type and range
// checks) and its entry point, which receives the parsed values and returns
// an exit code (exit_codes.hpp) or throws UsageError / InfraError.
#pragma once

#include <string>
#include <vector>

#include "args.hpp"

namespace CLI {
class App;
}

namespace scalefuzz::cli {

struct Command {
  const char* name;
  const char* summary;      // one line for `scalefuzz --help`
  const char* synopsis;     // after "usage: scalefuzz NAME "
  const char* description;  // paragraphs between the usage line and the options
  const char* exit_codes;   // what 0/1/2/3/130 mean for this command (kExitCodeTable)
  bool takes_tail;          // accepts "-- cmd args..." (ParsedArgs::tail)
  void (*declare)(CLI::App& options);
  int (*main)(const ParsedArgs& args);
};

// The table behind dispatch and --help; only commands that work are listed.
const std::vector<Command>& commands();

// Parses `args` (what follows the command name) against the command's
// declared options; UsageError naming the argument (with a "did you mean"
// for a mistyped option) on failure. Sets `help` instead when -h/--help is given.
ParsedArgs parse_command_line(const Command& command, const std::vector<std::string>& args, bool& help);

// The text of `scalefuzz NAME --help`, built from the declared options.
std::string command_help(const Command& command);

// The whole program: dispatch, errors mapped to the exit-code table.
int scalefuzz_main(const std::vector<std::string>& args);

}  // namespace scalefuzz::cli
