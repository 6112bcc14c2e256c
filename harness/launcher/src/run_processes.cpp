#include "run_processes.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <thread>

#include "proc_table.hpp"

namespace scalefuzz::harness {

using Clock = std::chrono::steady_clock;

RunProcesses::RunProcesses(long root_pid, std::string marker_name, std::string marker_value)
    : root_pid_(root_pid), marker_name_(std::move(marker_name)), marker_value_(std::move(marker_value)) {}

bool RunProcesses::has_marker(long pid) const {
  auto env = proc::read_environ(pid);
  auto it = env.find(marker_name_);
  return it != env.end() && it->second == marker_value_;
}

int RunProcesses::scan() {
  auto snapshot = proc::list_processes();
  std::map<long, std::vector<const proc::ProcStat*>> children;
  std::map<long, const proc::ProcStat*> by_pid;
  for (const auto& p : snapshot) {
    children[p.ppid].push_back(&p);
    by_pid[p.pid] = &p;
  }
  const long self = getpid();
  std::deque<const proc::ProcStat*> frontier;
  auto root = by_pid.find(root_pid_);
  if (root != by_pid.end()) frontier.push_back(root->second);
  // Orphans of the run are reparented to us (subreaper): recognise them by
  // the marker, since their parent chain no longer leads to mpiexec.
  for (const auto* child : children[self]) {
    if (child->pid == root_pid_) continue;
    auto known = tracked_.find(child->pid);
    if (known != tracked_.end() && known->second.start_time == child->start_time) {
      frontier.push_back(child);
      continue;
    }
    auto foreign = foreign_.find(child->pid);
    if (foreign != foreign_.end() && foreign->second == child->start_time) continue;
    if (has_marker(child->pid))
      frontier.push_back(child);
    else if (child->state != 'Z')
      foreign_[child->pid] = child->start_time;  // zombies have no readable environment
  }
  int added = 0;
  while (!frontier.empty()) {
    const auto* p = frontier.front();
    frontier.pop_front();
    auto [it, inserted] = tracked_.try_emplace(p->pid);
    if (!inserted && it->second.start_time != p->start_time) {
      it->second = Tracked{};  // pid reused after the old process was reaped
      inserted = true;
    }
    if (inserted) {
      ++added;
      it->second.start_time = p->start_time;
      it->second.ppid = p->ppid;
      it->second.inner_pid = proc::innermost_pid(p->pid).value_or(p->pid);
    }
    // A rank is the outermost process with PMI_RANK (a rank's own children
    // inherit it). Checked again on every scan until found: between the
    // proxy's fork and exec the future rank still has the proxy's environment.
    if (it->second.rank < 0 && p->pid != root_pid_ && p->state != 'Z') {
      auto parent = tracked_.find(p->ppid);
      bool parent_is_rank = parent != tracked_.end() && parent->second.rank >= 0;
      if (!parent_is_rank) {
        auto env = proc::read_environ(p->pid);
        auto rank = env.find("PMI_RANK");
        if (rank != env.end()) {
          try {
            it->second.rank = std::stoi(rank->second);
          } catch (const std::exception&) {
          }
        }
      }
    }
    for (const auto* child : children[p->pid]) frontier.push_back(child);
  }
  return added;
}

void RunProcesses::freeze() {
  for (int round = 0; round < 20; ++round) {
    scan();
    for (auto& [pid, t] : tracked_) {
      if (t.gone || !proc::is_same_process(pid, t.start_time)) continue;
      kill(static_cast<pid_t>(pid), SIGSTOP);
    }
    if (scan() == 0) break;  // nothing new appeared while stopping: fixpoint
  }
  auto deadline = Clock::now() + std::chrono::milliseconds(1000);
  while (Clock::now() < deadline) {
    bool all_stopped = true;
    for (const auto& [pid, t] : tracked_) {
      auto stat = proc::read_stat(pid);
      if (!stat || stat->start_time != t.start_time) continue;
      if (stat->state != 'T' && stat->state != 't' && stat->state != 'Z' && stat->state != 'X')
        all_stopped = false;
    }
    if (all_stopped) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

std::vector<std::pair<int, long>> RunProcesses::ranks() const {
  std::map<int, long> chosen;  // rank -> pid
  std::map<int, bool> by_record;
  for (const auto& [pid, t] : tracked_) {
    if (t.rank < 0) continue;
    auto recorded = recorded_.find(t.rank);
    if (recorded != recorded_.end() && !by_record[t.rank]) {
      if (t.inner_pid == recorded->second) {
        chosen[t.rank] = pid, by_record[t.rank] = true;
        continue;
      }
    }
    if (by_record[t.rank]) continue;
    auto current = chosen.find(t.rank);
    if (current == chosen.end() || t.start_time < tracked_.at(current->second).start_time ||
        (t.start_time == tracked_.at(current->second).start_time && pid < current->second))
      chosen[t.rank] = pid;
  }
  std::vector<std::pair<int, long>> out(chosen.begin(), chosen.end());
  return out;
}

std::optional<int> RunProcesses::rank_of(long pid) const {
  for (const auto& [rank, rank_pid] : ranks())
    if (rank_pid == pid) return rank;
  return std::nullopt;
}

std::optional<int> RunProcesses::rank_of_inner(long inner_pid) const {
  for (const auto& [rank, rank_pid] : ranks())
    if (tracked_.at(rank_pid).inner_pid == inner_pid) return rank;
  return std::nullopt;
}

std::optional<long> RunProcesses::host_pid_of_rank(int rank) const {
  for (const auto& [r, pid] : ranks())
    if (r == rank) return pid;
  return std::nullopt;
}

std::vector<long> RunProcesses::others() const {
  std::vector<long> out;
  const auto rank_pids = ranks();
  for (const auto& [pid, t] : tracked_) {
    if (t.gone || pid == root_pid_ || !proc::is_same_process(pid, t.start_time)) continue;
    if (std::none_of(rank_pids.begin(), rank_pids.end(), [&](const auto& r) { return r.second == pid; }))
      out.push_back(pid);
  }
  return out;
}

void RunProcesses::mark_root_reaped() {
  auto it = tracked_.find(root_pid_);
  if (it != tracked_.end()) it->second.gone = true;
  // Keep the root out of future scans: its pid may be reused.
  root_pid_ = -1;
}

std::vector<long> RunProcesses::kill_and_reap(std::chrono::milliseconds patience) {
  const long self = getpid();
  auto deadline = Clock::now() + patience;
  auto last_kill = Clock::time_point{};
  for (;;) {
    scan();
    bool resend = Clock::now() - last_kill > std::chrono::milliseconds(200);
    if (resend) last_kill = Clock::now();
    bool all_gone = true;
    for (auto& [pid, t] : tracked_) {
      if (t.gone) continue;
      auto stat = proc::read_stat(pid);
      if (!stat || stat->start_time != t.start_time) {
        t.gone = true;  // exited and reaped by its own (run-internal) parent
        continue;
      }
      if (stat->state == 'Z' || stat->state == 'X') {
        // Reap only what is ours to reap; a zombie whose parent is still a
        // process of the run is reparented to us once that parent dies.
        if (stat->ppid == self) {
          int status = 0;
          if (waitpid(static_cast<pid_t>(pid), &status, WNOHANG) == pid) {
            t.gone = true;
            continue;
          }
        }
        all_gone = false;
        continue;
      }
      all_gone = false;
      if (resend) kill(static_cast<pid_t>(pid), SIGKILL);
    }
    if (all_gone || Clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  std::vector<long> survivors;
  for (const auto& [pid, t] : tracked_)
    if (!t.gone) survivors.push_back(pid);
  return survivors;
}

int RunProcesses::adopt_marked() {
  int adopted = 0;
  for (const auto& p : proc::list_processes()) {
    if (p.state == 'Z' || p.state == 'X' || !has_marker(p.pid)) continue;
    auto it = tracked_.find(p.pid);
    if (it != tracked_.end() && it->second.start_time == p.start_time && !it->second.gone) continue;
    Tracked t;
    t.start_time = p.start_time;
    t.ppid = p.ppid;
    tracked_[p.pid] = t;
    ++adopted;
  }
  return adopted;
}

}  // namespace scalefuzz::harness
