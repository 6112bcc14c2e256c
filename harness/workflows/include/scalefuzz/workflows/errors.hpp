// What a workflow returns and throws, mapped to the one exit-code table
// (harness/cli/src/exit_codes.hpp holds the meanings printed by --help).
#pragma once

#include <stdexcept>
#include <string>

namespace scalefuzz::workflows {

enum ExitCode : int {
  kExitOk = 0,             // nothing found (or the command did what was asked)
  kExitFindings = 1,       // findings (or: the target manifested, the run did not end ok)
  kExitUsage = 2,          // usage or campaign-file error, unusable input (names file:line:column or run id)
  kExitInfra = 3,          // infrastructure: launcher or injector missing, a run not launched, disk full, internal error
  kExitInterrupted = 130,  // SIGINT/SIGTERM; run the same command again to resume
};

// Bad arguments or unusable input (exit 2).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Missing launchers, unreachable services, unwritable output (exit 3).
struct InfraError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What to say of an exception no workflow turned into a usage or
// infrastructure error (exit 3). What the operating system or SQLite refused
// (a full disk, a quota, a read-only file system) is the machine's state, not
// a bug of scalefuzz: said as such; anything else is an internal error.
std::string unexpected_failure(const std::exception& e);

}  // namespace scalefuzz::workflows
