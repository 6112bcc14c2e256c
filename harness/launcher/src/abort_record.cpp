#include "abort_record.hpp"

#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace scalefuzz::harness {

std::optional<AbortRecord> find_abort_record(const std::filesystem::path& run_dir, int nprocs) {
  std::error_code ec;
  if (!std::filesystem::is_directory(RunDir(run_dir).ranks_dir(), ec)) return std::nullopt;
  std::optional<AbortRecord> fatal;  // the first recorded fatal MPI error, when no rank called MPI_Abort
  for (int r = 0; r < nprocs; ++r) {
    trace::RankTrace rank;
    try {
      rank = trace::read_rank(run_dir, r);
    } catch (const std::exception&) {
      continue;  // a rank without readable traces says nothing about an abort
    }
    for (const auto& e : rank.events) {
      if (static_cast<trace::OpClass>(e.op_class) != trace::OpClass::Abort) continue;
      AbortRecord a;
      a.rank = r;
      a.error_code = e.count;
      try {
        trace::symbolize(run_dir, rank);
        if (e.callsite < rank.sites.size())
          if (const trace::Frame* f = trace::application_frame(rank.sites[e.callsite])) a.call_site = trace::format_frame(*f);
      } catch (const std::exception&) {
      }
      return a;
    }
    for (const auto& err : rank.errors) {
      if (err.seq == 0 || fatal) continue;
      fatal = AbortRecord{r, 1, {}, err.message};
      for (const auto& e : rank.events)
        if (e.seq == err.seq) {
          try {
            trace::symbolize(run_dir, rank);
            if (e.callsite < rank.sites.size())
              if (const trace::Frame* f = trace::application_frame(rank.sites[e.callsite]))
                fatal->call_site = trace::format_frame(*f);
          } catch (const std::exception&) {
          }
          break;
        }
    }
  }
  return fatal;
}

void apply_abort_record(Outcome& outcome, const AbortRecord& abort) {
  if (outcome.kind == OutcomeKind::Hang || outcome.kind == OutcomeKind::LaunchError) return;
  // A fatal MPI error the launcher already reported as an abort keeps its text.
  if (!abort.fatal_error.empty() && outcome.kind == OutcomeKind::MpiAbort) return;
  std::string was = outcome.kind == OutcomeKind::MpiAbort ? std::string() : std::string("; mpiexec alone said ") + to_string(outcome.kind);
  outcome.kind = OutcomeKind::MpiAbort;
  if (!abort.fatal_error.empty()) {
    // Open MPI sometimes loses its MPI_ABORT banner here (its show_help
    // fails with "Data unpack had inadequate space" when the handler aborts
    // inside a collective): the injector's record still says what happened.
    outcome.detail = "rank " + std::to_string(abort.rank) + "'s MPI error was fatal (" + abort.fatal_error + ")" +
                     (abort.call_site.empty() ? "" : " at " + abort.call_site) +
                     ": the job was aborted with error code 1 (mpiexec exit code " + std::to_string(outcome.exit_code) +
                     ")" + was;
    return;
  }
  outcome.detail = "rank " + std::to_string(abort.rank) + " called MPI_Abort with error code " +
                   std::to_string(abort.error_code) + (abort.call_site.empty() ? "" : " at " + abort.call_site) +
                   " (mpiexec exit code " + std::to_string(outcome.exit_code) + ")" + was;
}

}  // namespace scalefuzz::harness
