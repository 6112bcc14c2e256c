// The one table of scalefuzz exit codes, shared by every command, the help
// texts and the tests (README "Using it"); the codes are the workflows'
// (harness/workflows errors.hpp).
#pragma once

#include <array>

#include "scalefuzz/workflows/errors.hpp"

namespace scalefuzz::cli {

using workflows::ExitCode;
using workflows::kExitFindings;
using workflows::kExitInfra;
using workflows::kExitInterrupted;
using workflows::kExitOk;
using workflows::kExitUsage;

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
