// Guarded receives (issue 21, opt-in: SCALEFUZZ_NOISE_GUARD_RECEIVES=1, the
// noise knob guard_receives): the pages of a pending nonblocking or started
// persistent receive's buffer are PROT_NONE while the application runs, so
// reading or writing the buffer before the Wait/Test that completes the
// receive faults (MPI-4.0 §3.7.2/§3.7.3). receive_guard.cpp explains.
#pragma once

#include <cstdint>

namespace scalefuzz::inject {

namespace guard_detail {
extern constinit bool g_on;         // mode on and usable (single-threaded use of MPI, x86-64)
extern constinit bool g_protected;  // some guarded page is PROT_NONE now
extern constinit int g_armed;       // guarded receives still pending and not yet reported
void open_window();                 // unprotect every guarded page
void close_window();                // protect the pages of the armed receives
void release_slow(std::uint64_t request);
}  // namespace guard_detail

// Every outermost wrapper holds one for the whole call: MPI writes into
// pending receive buffers during any call, so their pages are accessible
// inside MPI and protected again when the call returns. Nothing to do (two
// loads) while no receive is guarded.
class GuardWindow {
 public:
  GuardWindow() {
    if (guard_detail::g_protected) guard_detail::open_window();
  }
  ~GuardWindow() {
    if (guard_detail::g_armed != 0) guard_detail::close_window();
  }
  GuardWindow(const GuardWindow&) = delete;
  GuardWindow& operator=(const GuardWindow&) = delete;
};

// MPI_Init: reads the switch, opens ranks/N.accessed and installs the
// SIGSEGV/SIGTRAP handlers when the mode can run (`single_threaded`: no
// MPI_THREAD_MULTIPLE and no noise send thread).
void setup_receive_guard(const char* ranks_dir, int rank, bool single_threaded);
// A receive posted (`post_seq`: the Irecv, Start or Startall record) into
// `bytes` contiguous bytes at `buffer`: guarded from the wrapper's return on.
void guard_receive(std::uint64_t request, std::uint64_t post_seq, const void* buffer, std::int64_t bytes);
inline bool guarding_receives() { return guard_detail::g_on; }
// The receive completed, was freed, or the rank finalizes (request 0: all).
inline void release_receive_guard(std::uint64_t request) {
  if (guard_detail::g_on) guard_detail::release_slow(request);
}

}  // namespace scalefuzz::inject
