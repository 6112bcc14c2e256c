#include "run_tree.hpp"

#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace scalefuzz::harness::testing {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// (state, ppid) from /proc/PID/stat.
bool stat_of(long pid, char& state, long& ppid) {
  std::string s = read_file("/proc/" + std::to_string(pid) + "/stat");
  auto close = s.rfind(')');
  if (close == std::string::npos) return false;
  std::istringstream rest(s.substr(close + 1));
  return static_cast<bool>(rest >> state >> ppid);
}

}  // namespace

std::string environ_value(long pid, const std::string& name) {
  std::string all = read_file("/proc/" + std::to_string(pid) + "/environ");
  std::string prefix = name + "=";
  std::size_t begin = 0;
  while (begin < all.size()) {
    std::size_t end = all.find('\0', begin);
    if (end == std::string::npos) end = all.size();
    if (all.compare(begin, prefix.size(), prefix) == 0) return all.substr(begin + prefix.size(), end - begin - prefix.size());
    begin = end + 1;
  }
  return "";
}

char process_state(long pid) {
  char state = '?';
  long ppid = 0;
  return stat_of(pid, state, ppid) ? state : '?';
}

std::vector<std::string> leftovers_of_run(const std::string& run_id) {
  std::vector<std::string> out;
  DIR* dir = opendir("/proc");
  if (!dir) return out;
  const long self = getpid();
  while (dirent* entry = readdir(dir)) {
    char* end = nullptr;
    long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0' || pid == self) continue;
    char state = '?';
    long ppid = 0;
    if (!stat_of(pid, state, ppid)) continue;
    std::string comm = read_file("/proc/" + std::to_string(pid) + "/comm");
    if (!comm.empty() && comm.back() == '\n') comm.pop_back();
    std::string what = "pid " + std::to_string(pid) + " (" + comm + ") state " + state;
    if (ppid == self)
      out.push_back(what + ", child of the test process");
    else if (environ_value(pid, "SCALEFUZZ_RUN_ID") == run_id)
      out.push_back(what + ", carries SCALEFUZZ_RUN_ID=" + run_id);
  }
  closedir(dir);
  return out;
}

int live_ranks_of_run(const std::string& run_id) {
  int count = 0;
  DIR* dir = opendir("/proc");
  if (!dir) return 0;
  while (dirent* entry = readdir(dir)) {
    char* end = nullptr;
    long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    char state = '?';
    long ppid = 0;
    if (!stat_of(pid, state, ppid) || state == 'Z') continue;
    if (environ_value(pid, "SCALEFUZZ_RUN_ID") == run_id && !environ_value(pid, "PMI_RANK").empty()) ++count;
  }
  closedir(dir);
  return count;
}

void reap_zombie_children() {
  int status = 0;
  while (waitpid(-1, &status, WNOHANG) > 0) {
  }
}

}  // namespace scalefuzz::harness::testing
