#include "classify.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <cstring>
#include <fstream>
#include <regex>

namespace scalefuzz::harness {
namespace {

// Hydra's execvp failure: the binary is missing or not executable.
const std::regex kExecError(R"(execvp error on file (.*) \((.*)\))");
// MPICH: "Abort(7) on node 1 (rank 1 in comm 0): application called
// MPI_Abort(MPI_COMM_WORLD, 7) - process 1"
const std::regex kAbort(R"(application called (MPI_Abort\([^)]*\))(?: - process (\d+))?)");
// Hydra 4.x: "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault (signal 11)"
const std::regex kExitString(R"(EXIT STRING: .*\(signal (\d+)\))");
// Hydra 3.x: "=   KILLED BY SIGNAL: 11 (Segmentation fault)"
const std::regex kKilledBySignal(R"(KILLED BY SIGNAL: (\d+))");
// Older Hydra: "=   EXIT CODE: 139" inside the BAD TERMINATION banner.
const std::regex kExitCode(R"(^=\s+EXIT CODE: (\d+))");
// UCX's fatal-signal handler in the crashing rank: "[host:pid:thread:tid]
// Caught signal 11 (...)", numbers padded to a width: "[vm:518  :0:518]".
const std::regex kUcxSignal(R"(^\[[^:\]]*:\s*(\d+)\s*:\s*\d+\s*:\s*\d+\s*\] Caught signal (\d+))");

constexpr std::size_t kMaxDetailText = 200;

std::string shorten(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  if (s.size() > kMaxDetailText) s = s.substr(0, kMaxDetailText) + "...";
  return s;
}

std::string last_nonempty_line(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r=") != std::string::npos) last = line;
  return shorten(last);
}

}  // namespace

std::string signal_name(int signal) {
  const char* abbrev = sigabbrev_np(signal);
  if (abbrev) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(signal);
}

FailureReport scan_failure_report(const std::filesystem::path& stdout_path,
                                  const std::filesystem::path& stderr_path) {
  FailureReport report;
  int banner_exit_code = 0;
  for (const auto& path : {stdout_path, stderr_path}) {
    std::ifstream in(path);
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
      // Cheap substring tests first: output can be large.
      if (!report.exec_error && line.find("execvp error") != std::string::npos &&
          std::regex_search(line, m, kExecError)) {
        report.exec_error = m[1].str() + ": " + m[2].str();
      } else if (!report.mpi_abort && line.find("MPI_Abort(") != std::string::npos &&
                 std::regex_search(line, m, kAbort)) {
        report.mpi_abort = true;
        report.abort_call = m[1].str();
        if (m[2].matched) report.abort_rank = std::stoi(m[2].str());
      } else if (line.find("EXIT STRING") != std::string::npos && std::regex_search(line, m, kExitString)) {
        report.signal = std::stoi(m[1].str());
      } else if (line.find("KILLED BY SIGNAL") != std::string::npos &&
                 std::regex_search(line, m, kKilledBySignal)) {
        if (report.signal == 0) report.signal = std::stoi(m[1].str());
      } else if (line.find("EXIT CODE:") != std::string::npos && std::regex_search(line, m, kExitCode)) {
        if (banner_exit_code == 0) banner_exit_code = std::stoi(m[1].str());
      } else if (report.signalled_pid == 0 && line.find("Caught signal") != std::string::npos &&
                 std::regex_search(line, m, kUcxSignal)) {
        report.signalled_pid = std::stol(m[1].str());
        if (report.signal == 0) report.signal = std::stoi(m[2].str());
      }
    }
  }
  // Hydra before 4.x printed 128 + signal as the exit code of a killed rank.
  if (report.signal == 0 && banner_exit_code > 128 && banner_exit_code < 128 + 65)
    report.signal = banner_exit_code - 128;
  return report;
}

std::optional<std::string> result_check_problem(const RunSpec& spec) {
  const std::string& c = spec.check;
  const bool wrong_regex = c == "stdout-regex" || c == "stderr-regex" || c == "output-regex";
  const bool must_match = c == "stdout-must-match" || c == "stderr-must-match" || c == "output-must-match";
  if (wrong_regex && !spec.wrong_result_regex) return c + " without a wrong-result regex";
  if (must_match && !spec.expected_stdout_regex) return c + " without an expected-output regex";
  if (c != "exit-code" && !wrong_regex && !must_match)
    return "unknown result check '" + c + "' (exit-code, stdout-|stderr-|output-regex or stdout-|stderr-|output-must-match)";
  for (const auto* pattern : {&spec.wrong_result_regex, &spec.expected_stdout_regex}) {
    if (!*pattern) continue;
    try {
      std::regex compiled(**pattern);
    } catch (const std::regex_error& e) {
      return "invalid result-check regex '" + **pattern + "': " + e.what();
    }
  }
  return std::nullopt;
}

std::optional<std::string> find_stdout_line(const std::filesystem::path& stdout_path,
                                            const std::string& pattern) {
  const std::regex re(pattern);
  std::ifstream in(stdout_path);
  std::string line;
  for (long number = 1; std::getline(in, line); ++number)
    if (std::regex_search(line, re)) return "line " + std::to_string(number) + ": " + shorten(line);
  return std::nullopt;
}

std::vector<std::pair<std::string, std::filesystem::path>> checked_streams(const RunSpec& spec,
                                                                           const std::filesystem::path& stdout_path,
                                                                           const std::filesystem::path& stderr_path) {
  if (spec.check.starts_with("stderr")) return {{"stderr", stderr_path}};
  if (spec.check.starts_with("output")) return {{"stdout", stdout_path}, {"stderr", stderr_path}};
  return {{"stdout", stdout_path}};
}

Outcome classify_exit(const RunSpec& spec, int wait_status, const std::filesystem::path& stdout_path,
                      const std::filesystem::path& stderr_path,
                      const std::function<std::optional<RankProcess>(long)>& rank_of_pid) {
  Outcome outcome;
  if (WIFSIGNALED(wait_status)) {
    // mpiexec itself was killed from outside: not the application's doing.
    outcome.kind = OutcomeKind::Failed;
    outcome.exit_code = -1;
    outcome.detail = "mpiexec was killed by " + signal_name(WTERMSIG(wait_status));
    return outcome;
  }
  outcome.exit_code = WEXITSTATUS(wait_status);
  FailureReport report = scan_failure_report(stdout_path, stderr_path);
  if (outcome.exit_code == 0 && report.mpi_abort) {
    // MPI_Abort(comm, 0): Hydra exits 0, the run still died.
    outcome.kind = OutcomeKind::MpiAbort;
    outcome.detail = (report.abort_rank >= 0 ? "rank " + std::to_string(report.abort_rank) : "a rank") + " called " +
                     report.abort_call + " (mpiexec exit code 0)";
    return outcome;
  }
  if (outcome.exit_code == 0) {
    const auto streams = checked_streams(spec, stdout_path, stderr_path);
    if (spec.wrong_result_regex) {
      for (const auto& [name, path] : streams)
        if (auto hit = find_stdout_line(path, *spec.wrong_result_regex)) {
          outcome.kind = OutcomeKind::WrongResult;
          outcome.detail = name + " " + *hit + " (matches wrong-result regex '" + *spec.wrong_result_regex + "')";
          return outcome;
        }
    }
    if (spec.expected_stdout_regex) {
      bool found = false;
      for (const auto& [name, path] : streams) found = found || find_stdout_line(path, *spec.expected_stdout_regex);
      if (!found) {
        outcome.kind = OutcomeKind::WrongResult;
        outcome.detail = "no " + std::string(streams.size() > 1 ? "stdout or stderr" : streams.front().first) +
                         " line matches the expected regex '" + *spec.expected_stdout_regex + "'";
        return outcome;
      }
    }
    outcome.kind = OutcomeKind::Ok;
    outcome.detail = "exit code 0";
    return outcome;
  }

  if (report.exec_error) {
    outcome.kind = OutcomeKind::LaunchError;
    outcome.detail = "mpiexec could not start the application: " + *report.exec_error;
  } else if (report.mpi_abort) {
    outcome.kind = OutcomeKind::MpiAbort;
    outcome.detail = (report.abort_rank >= 0 ? "rank " + std::to_string(report.abort_rank) : "a rank") +
                     " called " + report.abort_call + " (mpiexec exit code " +
                     std::to_string(outcome.exit_code) + ")";
  } else if (report.signal > 0) {
    outcome.kind = OutcomeKind::Crashed;
    outcome.signal = report.signal;
    std::string who = "a rank";
    if (report.signalled_pid > 0 && rank_of_pid) {
      if (auto p = rank_of_pid(report.signalled_pid)) {
        outcome.crashed_rank = p->rank;
        who = "rank " + std::to_string(p->rank) + (p->host_pid > 0 ? " (pid " + std::to_string(p->host_pid) + ")" : "");
      }
    }
    outcome.detail = who + " killed by signal " + std::to_string(report.signal) + " (" +
                     signal_name(report.signal) + "), mpiexec exit code " + std::to_string(outcome.exit_code);
    // Hydra (MPICH 4.0) SIGKILLs the other ranks when one exits early
    // without MPI_Finalize and then reports only that SIGKILL.
    if (report.signal == SIGKILL && report.signalled_pid == 0)
      outcome.detail += " (Hydra also reports this when a rank exited early without MPI_Finalize)";
  } else {
    outcome.kind = OutcomeKind::Failed;
    outcome.detail = "mpiexec exit code " + std::to_string(outcome.exit_code);
    std::string last = last_nonempty_line(stderr_path);
    if (!last.empty()) outcome.detail += "; last stderr line: " + last;
  }
  return outcome;
}

}  // namespace scalefuzz::harness
