// The set of processes belonging to one run: mpiexec, the hydra proxies, the
// ranks, and anything they forked, including orphans reparented to this
// (subreaper) process. Found through /proc parent chains from mpiexec and a
// per-launch marker in the environment. Only this run's processes are ever
// signalled or reaped, so runs in other threads are left alone.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace scalefuzz::harness {

class RunProcesses {
 public:
  // root_pid: the mpiexec child; marker: "NAME=value" present in the
  // environment of every process of the run.
  RunProcesses(long root_pid, std::string marker_name, std::string marker_value);

  // Adds the run's processes now visible in /proc to the tracked set.
  // Returns how many were new.
  int scan();

  // SIGSTOPs every process of the run, rescanning until no new one appears
  // (a stopped process cannot fork), then waits until they show as stopped.
  void freeze();

  // Rank processes seen so far as (world rank, pid), ordered by rank: one
  // per rank. A rank is the process the injector recorded for it
  // (set_recorded_pids); without a record, the earliest-started process
  // carrying PMI_RANK (a rank's forks inherit PMI_RANK but start later).
  std::vector<std::pair<int, long>> ranks() const;
  std::optional<int> rank_of(long pid) const;
  // The same for a pid as the run's processes see it (their getpid(), e.g.
  // in UCX's "Caught signal" line): different when the run has its own PID
  // namespace.
  std::optional<int> rank_of_inner(long inner_pid) const;
  // That rank's pid on the host.
  std::optional<long> host_pid_of_rank(int rank) const;

  // What the injector recorded: world rank -> the rank's getpid(), which is
  // its pid inside the run's PID namespace when it has one.
  void set_recorded_pids(const std::map<int, long>& recorded) { recorded_ = recorded; }

  // Live processes of the run that are neither mpiexec nor a rank (the
  // hydra proxies, the ranks' children, detached or not).
  std::vector<long> others() const;

  // The root was reaped by its owner (the launcher's wait loop).
  void mark_root_reaped();

  // SIGKILLs every live process of the run, reaps those reparented to us and
  // repeats until all are gone or `patience` runs out. Returns the pids that
  // survived (empty when the run is completely gone).
  std::vector<long> kill_and_reap(std::chrono::milliseconds patience);

  // Final check through all of /proc: adds every live process whose
  // environment carries the marker, whoever its parent is now, to the tracked
  // set (so kill_and_reap covers it). Returns how many were not tracked yet.
  int adopt_marked();

  std::size_t tracked_count() const { return tracked_.size(); }

 private:
  struct Tracked {
    unsigned long long start_time = 0;
    long ppid = 0;
    int rank = -1;
    long inner_pid = 0;  // pid inside the run's PID namespace (read once: a dead process has none)
    bool gone = false;
  };
  bool has_marker(long pid) const;

  long root_pid_;
  std::string marker_name_, marker_value_;
  std::map<long, Tracked> tracked_;
  // Children of ours that were checked and belong to another run or to
  // another part of the harness: (pid, start_time).
  std::map<long, unsigned long long> foreign_;
  std::map<int, long> recorded_;
};

}  // namespace scalefuzz::harness
