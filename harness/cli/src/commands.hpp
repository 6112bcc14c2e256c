// Entry points of the scalefuzz subcommands. Each returns an exit code
// (args.hpp: ExitCode) and throws UsageError / InfraError for the caller to map.
#pragma once

#include <string>
#include <vector>

#include "scalefuzz/harness/run_spec.hpp"

namespace scalefuzz::cli {

struct Command {
  const char* name;
  const char* summary;  // one line for `scalefuzz --help`
  const char* usage;    // full text for `scalefuzz NAME --help`
  int (*main)(const std::vector<std::string>& args);
};

int cmd_run(const std::vector<std::string>& args);
int cmd_analyze(const std::vector<std::string>& args);
int cmd_report(const std::vector<std::string>& args);
int cmd_exec(const std::vector<std::string>& args);
// exec's --check value (exit-code or KIND=REGEX) into spec.check and its regex; UsageError when bad.
void apply_check_option(const std::string& text, harness::RunSpec& spec);
int cmd_trace(const std::vector<std::string>& args);
int cmd_reproduce(const std::vector<std::string>& args);  // cmd_reproduce.cpp
int cmd_kcca_eval(const std::vector<std::string>& args);  // cmd_kcca_eval.cpp

// The table behind dispatch and --help; only commands that work are listed.
const std::vector<Command>& commands();

}  // namespace scalefuzz::cli
