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
extern constinit bool g_receives;   // guard_receives asked for
extern constinit bool g_windows;    // guard_windows asked for (one-sided; handlers_rma.cpp)
extern constinit bool g_protected;  // some guarded page is PROT_NONE now
extern constinit int g_armed;       // guarded receives still pending and not yet reported
void open_window();                 // unprotect every guarded page
void close_window();                // protect the pages of the armed receives
void close_window_after_call();     // the same when a wrapper returns: a new stretch of the program begins
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
    if (guard_detail::g_armed != 0) guard_detail::close_window_after_call();
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
// `stack_pages` (one-sided buffers, guard_windows): a buffer on the stack is
// guarded on every page it touches (the handlers run on an alternate signal
// stack; the program's own accesses to those pages are single-stepped).
void guard_receive(std::uint64_t request, std::uint64_t post_seq, const void* buffer, std::int64_t bytes,
                   bool stack_pages = false);
inline bool guarding_receives() { return guard_detail::g_on && guard_detail::g_receives; }
// One-sided (guard_windows): the buffer a Get or fetching operation writes is
// guarded like a pending receive (guard_receive with the operation's id,
// released at its completion); window memory exposed to other ranks is
// guarded from its creation (or Win_attach) to Win_free (or Win_detach of
// `base`; base null: every region of the window), and each access of the
// rank's own code to it is noted in ranks/N.winaccess.
inline bool guarding_rma() { return guard_detail::g_on && guard_detail::g_windows; }
void guard_window(std::uint32_t window_id, const void* base, std::int64_t bytes);
// Threaded guard_windows (several threads, receive_guard.cpp): before a
// synchronization call that completes one-sided operations the calling
// thread sleeps a while (bounded per rank), so another thread's access of
// their buffers or of window memory lands while they are still pending when
// nothing orders it; the detector judges only overlaps seen. Nothing otherwise.
void hold_before_completion();
void unguard_window(std::uint32_t window_id, const void* base);
// The receive completed, was freed, or the rank finalizes (request 0: all).
inline void release_receive_guard(std::uint64_t request) {
  if (guard_detail::g_on) guard_detail::release_slow(request);
}

}  // namespace scalefuzz::inject
