// Fatal signals of a rank, recorded by the rank itself (issue 21): mpiexec's
// exit code names some signal of some rank (often SIGTERM/SIGKILL sent to the
// survivors), so the crashing rank writes ranks/N.signal before it dies:
//   "<signal> <seq of the current/last record> <in_call 0/1> <pc-hex> <frame-hex> ..."
// (async-signal-safe: open/write/close, libunwind's unw_backtrace, no malloc),
// then restores the previous disposition and re-raises.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "handlers.hpp"
#include "signal_format.hpp"
#include "record.hpp"
#include "state.hpp"

namespace scalefuzz::inject {

namespace {
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction g_previous[sizeof kSignals / sizeof kSignals[0]];
char g_path[512];
char g_exit_path[512];

// atexit: a rank leaving (exit, return from main) before MPI_Finalize.
void on_exit_without_finalize() {
  if (!g_enabled) return;  // true from MPI_Init's return until MPI_Finalize
  int fd = ::open(g_exit_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd >= 0) {
    (void)!::write(fd, "exit-without-finalize\n", 22);
    ::close(fd);
  }
}
volatile sig_atomic_t g_in_handler = 0;

using signal_format::put_dec;
using signal_format::put_hex;

void on_fatal_signal(int sig, siginfo_t* info, void* ucontext) {
  (void)info;
  (void)ucontext;
  if (!g_in_handler) {
    g_in_handler = 1;
    char line[1024];
    char* p = put_dec(line, static_cast<unsigned long>(sig));
    *p++ = ' ';
    std::uint64_t seq = 0;
    int in_call = 0;
    if (g_state != nullptr && g_state->live != nullptr) {
      seq = g_state->live->current_seq;
      in_call = g_state->live->in_call;
    }
    p = put_dec(p, seq);
    *p++ = ' ';
    *p++ = static_cast<char>('0' + (in_call != 0));
    void* frames[32];
    int n = unw_backtrace(frames, 32);
    for (int i = 0; i < n && p < line + sizeof line - 24; ++i) {
      *p++ = ' ';
      p = put_hex(p, reinterpret_cast<unsigned long>(frames[i]));
    }
    *p++ = '\n';
    int fd = ::open(g_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      (void)!::write(fd, line, static_cast<std::size_t>(p - line));
      ::close(fd);
    }
  }
  for (std::size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i)
    if (kSignals[i] == sig) sigaction(sig, &g_previous[i], nullptr);
  raise(sig);
}
}  // namespace

void install_signal_handlers(const char* ranks_dir, int rank) {
  std::string path = std::string(ranks_dir) + "/" + std::to_string(rank) + ".signal";
  if (path.size() >= sizeof g_path) return;
  std::memcpy(g_path, path.c_str(), path.size() + 1);
  std::string exit_path = std::string(ranks_dir) + "/" + std::to_string(rank) + ".exit";
  std::memcpy(g_exit_path, exit_path.c_str(), exit_path.size() + 1);
  std::atexit(on_exit_without_finalize);
  for (std::size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) {
    struct sigaction sa {};
    sa.sa_sigaction = on_fatal_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(kSignals[i], &sa, &g_previous[i]);
  }
}

}  // namespace scalefuzz::inject
