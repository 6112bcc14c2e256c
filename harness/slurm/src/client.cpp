#include "scalefuzz/slurm/client.hpp"

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <sstream>

// Exported by libslurm 22.05 but not declared in its headers.
extern "C" const char* slurm_job_reason_string(enum job_state_reason inx);

namespace scalefuzz::slurm {

namespace fs = std::filesystem;

namespace {

std::string slurm_error_text(int code) {
  const char* text = slurm_strerror(code);
  return std::string(text ? text : "unknown error") + " (" + std::to_string(code) + ")";
}

[[noreturn]] void fail(const std::string& what, int code) {
  throw SlurmError(what + ": " + slurm_error_text(code) + " [SLURM_CONF=" + slurm_config_file().string() + "]");
}

TaskState state_of(std::uint32_t job_state) {
  if (job_state & JOB_COMPLETING) return TaskState::Completing;
  switch (job_state & JOB_STATE_BASE) {
    case JOB_PENDING: return TaskState::Pending;
    case JOB_RUNNING: return TaskState::Running;
    case JOB_SUSPENDED: return TaskState::Suspended;
    case JOB_COMPLETE: return TaskState::Completed;
    case JOB_CANCELLED: return TaskState::Cancelled;
    case JOB_FAILED: return TaskState::Failed;
    case JOB_TIMEOUT: return TaskState::Timeout;
    case JOB_NODE_FAIL: return TaskState::NodeFail;
    case JOB_PREEMPTED: return TaskState::Preempted;
    case JOB_BOOT_FAIL: return TaskState::BootFail;
    case JOB_DEADLINE: return TaskState::Deadline;
    case JOB_OOM: return TaskState::OutOfMemory;
    default: return TaskState::Unknown;
  }
}

// "0-3,7,9-15:2%4" -> task ids (the throttle is dropped).
std::vector<long> parse_task_ids(const std::string& text) {
  std::vector<long> ids;
  std::string list = text.substr(0, text.find('%'));
  std::stringstream parts(list);
  std::string part;
  while (std::getline(parts, part, ',')) {
    if (part.empty()) continue;
    long step = 1;
    if (auto colon = part.find(':'); colon != std::string::npos) {
      step = std::max(1L, std::stol(part.substr(colon + 1)));
      part = part.substr(0, colon);
    }
    auto dash = part.find('-');
    long first = std::stol(part.substr(0, dash));
    long last = dash == std::string::npos ? first : std::stol(part.substr(dash + 1));
    for (long id = first; id <= last; id += step) ids.push_back(id);
  }
  return ids;
}

// Megabytes from "4000", "4G", "512M", "1T".
std::uint64_t parse_megabytes(const std::string& value) {
  std::size_t used = 0;
  unsigned long long n = std::stoull(value, &used);
  std::string unit = value.substr(used);
  if (unit.empty() || unit == "M" || unit == "m") return n;
  if (unit == "K" || unit == "k") return (n + 1023) / 1024;
  if (unit == "G" || unit == "g") return n * 1024;
  if (unit == "T" || unit == "t") return n * 1024 * 1024;
  throw std::invalid_argument("memory size '" + value + "' (use a number of MB or a K/M/G/T suffix)");
}

// C strings libslurm reads; kept alive until the request is sent.
struct CStrings {
  std::vector<std::unique_ptr<char[]>> owned;
  char* operator()(const std::string& s) {
    owned.push_back(std::make_unique<char[]>(s.size() + 1));
    std::copy(s.begin(), s.end(), owned.back().get());
    owned.back()[s.size()] = '\0';
    return owned.back().get();
  }
};

void init_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    const fs::path conf = slurm_config_file();
    slurm_init(conf.c_str());
  });
}

}  // namespace

fs::path slurm_config_file() {
  const char* env = std::getenv("SLURM_CONF");
  fs::path conf = env && *env ? fs::path(env) : fs::path("/etc/slurm/slurm.conf");
  if (!fs::is_regular_file(conf))
    throw SlurmError("no SLURM configuration at " + conf.string() +
                     (env && *env ? " (from SLURM_CONF)" : " (set SLURM_CONF; ci/slurm-local.sh up prints it)"));
  return conf;
}

void apply_sbatch_option(void* msg, const std::string& option) {
  static CStrings storage;  // option strings of the (few) requests of one process
  auto* desc = static_cast<job_desc_msg_t*>(msg);
  const auto eq = option.find('=');
  const std::string name = option.substr(0, eq);
  const std::string value = eq == std::string::npos ? "" : option.substr(eq + 1);
  const bool has_value = eq != std::string::npos && !value.empty();
  auto need_value = [&] {
    if (!has_value) throw std::invalid_argument("sbatch option " + name + " needs a value");
  };
  if (name == "--exclusive" && eq == std::string::npos) {
    desc->shared = JOB_SHARED_NONE;
  } else if (name == "--overcommit" && eq == std::string::npos) {
    desc->overcommit = 1;
  } else if (name == "--mem" || name == "--mem-per-cpu") {
    need_value();
    desc->pn_min_memory = parse_megabytes(value) | (name == "--mem-per-cpu" ? MEM_PER_CPU : 0);
  } else if (name == "--nice") {
    need_value();
    desc->nice = static_cast<std::uint32_t>(NICE_OFFSET + std::stol(value));
  } else {
    char* const text = has_value ? storage(value) : nullptr;
    if (name == "--constraint") desc->features = text;
    else if (name == "--reservation") desc->reservation = text;
    else if (name == "--nodelist") desc->req_nodes = text;
    else if (name == "--exclude") desc->exc_nodes = text;
    else if (name == "--comment") desc->comment = text;
    else if (name == "--licenses") desc->licenses = text;
    else if (name == "--wckey") desc->wckey = text;
    else throw std::invalid_argument("unsupported sbatch option '" + option + "'");
    need_value();
  }
}

SlurmClient::SlurmClient() { init_once(); }

std::uint32_t SlurmClient::max_array_size() {
  slurm_conf_t* conf = nullptr;
  if (slurm_load_ctl_conf(0, &conf) != SLURM_SUCCESS) fail("reading the SLURM configuration", slurm_get_errno());
  const std::uint32_t size = conf->max_array_sz;
  slurm_free_ctl_conf(conf);
  return size;
}

std::uint32_t SlurmClient::submit(const JobRequest& r) {
  CStrings s;
  job_desc_msg_t desc;
  slurm_init_job_desc_msg(&desc);
  desc.name = s(r.name);
  desc.script = s(r.script);
  desc.work_dir = s(r.work_dir.string());
  desc.std_out = s(r.std_out);
  desc.std_err = s(r.std_out);
  if (!r.array_inx.empty()) desc.array_inx = s(r.array_inx);  // "": one job, not an array
  if (!r.dependency.empty()) desc.dependency = s(r.dependency);
  if (!r.partition.empty()) desc.partition = s(r.partition);
  if (!r.account.empty()) desc.account = s(r.account);
  if (!r.qos.empty()) desc.qos = s(r.qos);
  if (r.time_minutes > 0) desc.time_limit = r.time_minutes;
  desc.min_nodes = desc.max_nodes = static_cast<std::uint32_t>(r.nodes);
  desc.num_tasks = static_cast<std::uint32_t>(r.num_tasks);
  desc.min_cpus = static_cast<std::uint32_t>(r.num_tasks);
  desc.user_id = getuid();
  desc.group_id = getgid();
  desc.requeue = 0;  // a node failure must surface as NODE_FAIL for collect, not rerun silently
  std::vector<char*> env;
  for (const auto& e : r.environment) env.push_back(s(e));
  env.push_back(nullptr);
  desc.environment = env.data();
  desc.env_size = static_cast<std::uint32_t>(r.environment.size());
  for (const auto& option : r.extra_args) {
    try {
      apply_sbatch_option(&desc, option);
    } catch (const std::exception& e) {
      throw SlurmError(std::string("scheduler.extra_args: ") + e.what());
    }
  }
  submit_response_msg_t* response = nullptr;
  for (unsigned retries = 0; slurm_submit_batch_job(&desc, &response) != SLURM_SUCCESS; ++retries) {
    const int code = slurm_get_errno();
    const unsigned wait_s = submit_retry_delay_s(code, retries);
    if (wait_s == 0) fail("submitting job array " + r.array_inx + " of " + r.name, code);
    std::fprintf(stderr, "scalefuzz: submitting job array %s of %s: %s; retrying in %u s\n", r.array_inx.c_str(),
                 r.name.c_str(), slurm_error_text(code).c_str(), wait_s);
    sleep(wait_s);
  }
  const std::uint32_t id = response->job_id;
  slurm_free_submit_response_response_msg(response);
  return id;
}

unsigned submit_retry_delay_s(int slurm_errno, unsigned retries_so_far) {
  constexpr unsigned kMaxRetries = 15;  // sbatch's MAX_RETRIES
  const bool transient = slurm_errno == ESLURM_ERROR_ON_DESC_TO_RECORD_COPY || slurm_errno == ESLURM_NODES_BUSY ||
                         slurm_errno == EAGAIN;
  return transient && retries_so_far < kMaxRetries ? retries_so_far + 1 : 0;
}

std::map<std::pair<std::uint32_t, long>, TaskStatus> SlurmClient::task_states(
    const std::set<std::uint32_t>& arrays) {
  std::map<std::pair<std::uint32_t, long>, TaskStatus> out;
  job_info_msg_t* msg = nullptr;
  if (slurm_load_jobs(0, &msg, SHOW_ALL) != SLURM_SUCCESS) fail("reading job states", slurm_get_errno());
  for (std::uint32_t i = 0; i < msg->record_count; ++i) {
    const slurm_job_info_t& job = msg->job_array[i];
    if (job.array_job_id == 0 || !arrays.count(job.array_job_id)) continue;
    TaskStatus status;
    status.job_id = job.array_job_id;
    status.state = state_of(job.job_state);
    status.exit_status = static_cast<int>(job.exit_code);
    const char* reason = slurm_job_reason_string(static_cast<job_state_reason>(job.state_reason));
    status.reason = reason ? reason : "";
    status.nodes = job.nodes ? job.nodes : "";
    std::vector<long> ids;
    if (job.array_task_id != NO_VAL) ids.push_back(static_cast<long>(job.array_task_id));
    else if (job.array_task_str) ids = parse_task_ids(job.array_task_str);
    for (long id : ids) {
      status.task_id = id;
      out[{status.job_id, id}] = status;
    }
  }
  slurm_free_job_info_msg(msg);
  return out;
}

}  // namespace scalefuzz::slurm
