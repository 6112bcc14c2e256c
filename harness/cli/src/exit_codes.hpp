// The one table of scalefuzz exit codes, shared by every command, the help
// texts and the tests (README "Using it").
#pragma once

#include <array>

namespace scalefuzz::cli {

enum ExitCode : int {
  kExitOk = 0,             // nothing found (or the command did what was asked)
  kExitFindings = 1,       // findings (or: the target manifested, the run did not end ok)
  kExitUsage = 2,          // usage or campaign-file error, unusable input (names file:line:column or run id)
  kExitInfra = 3,          // infrastructure: launcher or injector missing, a run not launched, disk full, internal error
  kExitInterrupted = 130,  // SIGINT/SIGTERM; run the same command again to resume
};

struct ExitCodeMeaning {
  ExitCode code;
  const char* meaning;
};

inline constexpr std::array<ExitCodeMeaning, 5> kExitCodeTable{{
    {kExitOk, "nothing found"},
    {kExitFindings, "findings"},
    {kExitUsage, "usage or campaign-file error (file:line:column or run id)"},
    {kExitInfra, "infrastructure failure (launcher or injector missing, a run could not be launched, output not "
                 "writable, disk full)"},
    {kExitInterrupted, "interrupted (run the same command again to resume)"},
}};

}  // namespace scalefuzz::cli
