// Read-only views of /proc: process status lines and environments. Used to
// find every process of a run (parent chains, environment markers).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace scalefuzz::harness::proc {

struct ProcStat {
  long pid = 0;
  long ppid = 0;
  char state = '?';                  // R S D T t Z X ...
  unsigned long long start_time = 0; // clock ticks since boot: (pid, start_time) names a process
};

// nullopt when the process does not exist (any more).
std::optional<ProcStat> read_stat(long pid);

// Every process currently in /proc.
std::vector<ProcStat> list_processes();

// The initial environment of a process as NAME -> value; empty when it is a
// zombie or unreadable.
std::map<std::string, std::string> read_environ(long pid);

// The process's pid in its innermost PID namespace (the last NSpid field of
// /proc/PID/status): what getpid() returned to it. nullopt when gone.
std::optional<long> innermost_pid(long pid);

// The command name (/proc/PID/comm), "" when gone.
std::string command_name(long pid);

// True when `pid` still names the process that had `start_time`.
bool is_same_process(long pid, unsigned long long start_time);

}  // namespace scalefuzz::harness::proc
