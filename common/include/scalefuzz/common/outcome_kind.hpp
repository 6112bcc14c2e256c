#pragma once
// How a run ended: written by the harness (run store, reporters) and read by
// every detector (detectors/api), so it lives on the ground floor below both.

#include <optional>
#include <string>

#include "scalefuzz/common/enum_names.hpp"

namespace scalefuzz {

// Cancelled and Infrastructure come from a batch scheduler (harness/slurm):
// the run was cancelled, or its node failed or it was preempted; both are
// about the run's circumstances, not the application, and are resubmittable.
// Skipped: never started because the run it depends on did not finish
// cleanly (an application-centric run whose system-centric run of the same
// point hung or crashed): says nothing about the application.
enum class OutcomeKind { Ok, Failed, Crashed, MpiAbort, Hang, WrongResult, LaunchError, Cancelled, Infrastructure, Skipped };

inline constexpr EnumName<OutcomeKind> kOutcomeNames[] = {
    {OutcomeKind::Ok, "ok"},
    {OutcomeKind::Failed, "failed"},
    {OutcomeKind::Crashed, "crashed"},
    {OutcomeKind::MpiAbort, "mpi-abort"},
    {OutcomeKind::Hang, "hang"},
    {OutcomeKind::WrongResult, "wrong-result"},
    {OutcomeKind::LaunchError, "launch-error"},
    {OutcomeKind::Cancelled, "cancelled"},
    {OutcomeKind::Infrastructure, "infrastructure"},
    {OutcomeKind::Skipped, "skipped"}};

inline const char* to_string(OutcomeKind k) { return name_of(kOutcomeNames, k); }
inline std::optional<OutcomeKind> outcome_from_string(const std::string& s) { return value_named(kOutcomeNames, s); }
// Whether the outcome says nothing about the application (rerun it).
inline bool is_rerunnable(OutcomeKind k) { return k == OutcomeKind::Cancelled || k == OutcomeKind::Infrastructure; }
// The outcomes that are localized: hang, crashed, mpi-abort, failed.
inline bool is_failure(OutcomeKind k) {
  return k == OutcomeKind::Hang || k == OutcomeKind::Crashed || k == OutcomeKind::MpiAbort || k == OutcomeKind::Failed;
}

}  // namespace scalefuzz
