#include "scalefuzz/slurm/plan.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <stdexcept>
#include <tuple>

#include "scalefuzz/detectors/finding.hpp"

namespace scalefuzz::slurm {

namespace {

Phase phase_of(const harness::RunSpec& run) {
  return run.noise.mode == noise::Mode::Application ? Phase::Application : Phase::First;
}

}  // namespace

std::string ArrayPlan::array_inx(int max_parallel) const {
  std::string out = detectors::number_ranges(task_ids);  // SLURM's --array syntax is the same range text
  if (max_parallel > 0) out += "%" + std::to_string(max_parallel);
  return out;
}

std::vector<long> ArrayPlan::run_indices() const {
  std::vector<long> out;
  out.reserve(task_ids.size());
  for (long id : task_ids) out.push_back(offset + id);
  return out;
}

std::vector<ArrayPlan> plan_arrays(const std::vector<harness::RunSpec>& runs, const std::vector<long>& selected,
                                   long max_array_size) {
  if (max_array_size < 1) throw std::invalid_argument("MaxArraySize must be at least 1");
  std::map<std::tuple<Phase, int, long>, ArrayPlan> groups;
  for (long index : selected) {
    if (index < 0 || static_cast<std::size_t>(index) >= runs.size())
      throw std::out_of_range("run index " + std::to_string(index) + " out of range");
    const auto& run = runs[static_cast<std::size_t>(index)];
    const long chunk = index / max_array_size;
    auto& plan = groups[{phase_of(run), run.nprocs, chunk}];
    plan.phase = phase_of(run);
    plan.nprocs = run.nprocs;
    plan.offset = chunk * max_array_size;
    plan.task_ids.push_back(index - plan.offset);
  }
  std::vector<ArrayPlan> out;
  for (auto& [key, plan] : groups) {
    std::sort(plan.task_ids.begin(), plan.task_ids.end());
    plan.task_ids.erase(std::unique(plan.task_ids.begin(), plan.task_ids.end()), plan.task_ids.end());
    out.push_back(std::move(plan));
  }
  return out;
}

void order_for_submission(std::vector<harness::RunSpec>& runs) {
  std::stable_sort(runs.begin(), runs.end(), [](const harness::RunSpec& a, const harness::RunSpec& b) {
    return std::make_tuple(phase_of(a), a.nprocs) < std::make_tuple(phase_of(b), b.nprocs);
  });
}

std::string sh_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string batch_script(const std::string& campaign, const std::filesystem::path& scalefuzz,
                         const std::filesystem::path& out_dir, const ArrayPlan& array) {
  // Only quoted paths and integers: the runs' argv, parameters and
  // environment stay in runs.json and never pass through a shell.
  std::string script = "#!/bin/sh\n";
  std::string label = campaign;
  for (char& c : label)
    if (c == '\n' || c == '\r') c = ' ';
  script += "# scalefuzz campaign " + sh_quote(label) + ": " + std::to_string(array.task_ids.size()) + " runs at " +
            std::to_string(array.nprocs) + " ranks (written by scalefuzz submit)\n";
  script += "exec " + sh_quote(scalefuzz.string()) + " task " + sh_quote(out_dir.string()) + " \"$((" +
            std::to_string(array.offset) + " + SLURM_ARRAY_TASK_ID))\"\n";
  return script;
}

std::uint32_t time_limit_minutes(const std::string& t) {
  if (t.empty()) return 0;
  static const std::regex kForm(R"((?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?)");
  std::smatch m;
  if (!std::regex_match(t, m, kForm)) throw std::invalid_argument("not a SLURM time limit: '" + t + "'");
  auto num = [&](int i) -> unsigned long long { return m[i].matched ? std::stoull(m[i].str()) : 0; };
  unsigned long long seconds = 0;
  if (m[1].matched) {  // D-H, D-H:M, D-H:M:S
    seconds = num(1) * 86400 + num(2) * 3600 + num(3) * 60 + num(4);
  } else if (m[4].matched) {  // H:M:S
    seconds = num(2) * 3600 + num(3) * 60 + num(4);
  } else if (m[3].matched) {  // M:S
    seconds = num(2) * 60 + num(3);
  } else {  // M
    seconds = num(2) * 60;
  }
  return static_cast<std::uint32_t>(std::max<unsigned long long>(1, (seconds + 59) / 60));
}

const char* to_string(TaskState state) {
  switch (state) {
    case TaskState::Pending: return "PENDING";
    case TaskState::Running: return "RUNNING";
    case TaskState::Suspended: return "SUSPENDED";
    case TaskState::Completing: return "COMPLETING";
    case TaskState::Completed: return "COMPLETED";
    case TaskState::Failed: return "FAILED";
    case TaskState::Timeout: return "TIMEOUT";
    case TaskState::Cancelled: return "CANCELLED";
    case TaskState::NodeFail: return "NODE_FAIL";
    case TaskState::Preempted: return "PREEMPTED";
    case TaskState::BootFail: return "BOOT_FAIL";
    case TaskState::Deadline: return "DEADLINE";
    case TaskState::OutOfMemory: return "OUT_OF_MEMORY";
    case TaskState::Unknown: return "UNKNOWN";
  }
  return "UNKNOWN";
}

bool is_active(TaskState s) {
  return s == TaskState::Pending || s == TaskState::Running || s == TaskState::Suspended ||
         s == TaskState::Completing;
}

std::string task_name(std::uint32_t job_id, long task_id) {
  return std::to_string(job_id) + "_" + std::to_string(task_id);
}

std::optional<harness::Outcome> outcome_without_result(const TaskStatus& status) {
  using harness::OutcomeKind;
  if (is_active(status.state)) return std::nullopt;
  harness::Outcome o;
  o.exit_code = -1;
  const std::string task = "SLURM task " + task_name(status.job_id, status.task_id);
  const std::string why = status.reason.empty() || status.reason == "None" ? "" : " (" + status.reason + ")";
  switch (status.state) {
    case TaskState::Timeout:
      o.kind = OutcomeKind::Hang;
      o.detail = "killed by SLURM's time limit (TIMEOUT of " + task + ") before the harness watchdog; no stacks";
      break;
    case TaskState::Cancelled:
    case TaskState::Deadline:
      o.kind = OutcomeKind::Cancelled;
      o.detail = task + " " + to_string(status.state) + why;
      break;
    case TaskState::OutOfMemory:
      o.kind = OutcomeKind::Crashed;
      o.detail = task + " ran out of memory (OUT_OF_MEMORY)";
      break;
    case TaskState::NodeFail:
    case TaskState::Preempted:
    case TaskState::BootFail:
      o.kind = OutcomeKind::Infrastructure;
      o.detail = task + " " + to_string(status.state) + why + (status.nodes.empty() ? "" : " on " + status.nodes);
      break;
    default:
      o.kind = OutcomeKind::Infrastructure;
      o.detail = task + " ended " + to_string(status.state) + why + " without a result (exit status " +
                 std::to_string(status.exit_status) + "; see OUT/slurm/logs/" + task_name(status.job_id, status.task_id) +
                 ".out)";
      break;
  }
  return o;
}

}  // namespace scalefuzz::slurm
