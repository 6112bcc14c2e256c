// Entry points of the scalefuzz subcommands. Each returns an exit code
// (args.hpp: ExitCode) and throws UsageError / InfraError for the caller to map.
#pragma once

#include <string>
#include <vector>

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
int cmd_trace(const std::vector<std::string>& args);
int cmd_reproduce(const std::vector<std::string>& args);  // cmd_reproduce.cpp
int cmd_kcca_eval(const std::vector<std::string>& args);  // cmd_kcca_eval.cpp
// SLURM campaigns (cmd_slurm.cpp; the logic is in harness/slurm).
int cmd_submit(const std::vector<std::string>& args);
int cmd_task(const std::vector<std::string>& args);
int cmd_status(const std::vector<std::string>& args);
int cmd_collect(const std::vector<std::string>& args);

// The table behind dispatch and --help; only commands that work are listed.
const std::vector<Command>& commands();

}  // namespace scalefuzz::cli
