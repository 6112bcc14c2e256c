#include "proc_table.hpp"

#include <dirent.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace scalefuzz::harness::proc {

std::optional<ProcStat> read_stat(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  // The command name (field 2) is in parentheses and may contain spaces or
  // parentheses itself: the fields after it start after the *last* ')'.
  auto close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(line.substr(close + 1));
  ProcStat stat;
  stat.pid = pid;
  rest >> stat.state >> stat.ppid;
  // Fields 5..21 are skipped; field 22 is starttime.
  std::string skip;
  for (int field = 5; field <= 21; ++field) rest >> skip;
  rest >> stat.start_time;
  if (!rest) return std::nullopt;
  return stat;
}

std::vector<ProcStat> list_processes() {
  std::vector<ProcStat> out;
  DIR* dir = opendir("/proc");
  if (!dir) return out;
  while (dirent* entry = readdir(dir)) {
    char* end = nullptr;
    long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    if (auto stat = read_stat(pid)) out.push_back(*stat);
  }
  closedir(dir);
  return out;
}

std::map<std::string, std::string> read_environ(long pid) {
  std::map<std::string, std::string> env;
  std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
  if (!in) return env;
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t begin = 0;
  while (begin < all.size()) {
    std::size_t end = all.find('\0', begin);
    if (end == std::string::npos) end = all.size();
    std::string entry = all.substr(begin, end - begin);
    auto eq = entry.find('=');
    if (eq != std::string::npos) env.emplace(entry.substr(0, eq), entry.substr(eq + 1));
    begin = end + 1;
  }
  return env;
}

std::optional<long> innermost_pid(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("NSpid:", 0) != 0) continue;
    const auto last = line.find_last_of(" \t");
    try {
      return std::stol(line.substr(last + 1));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string command_name(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(in, name);
  return name;
}

bool is_same_process(long pid, unsigned long long start_time) {
  auto stat = read_stat(pid);
  return stat && stat->start_time == start_time;
}

}  // namespace scalefuzz::harness::proc
