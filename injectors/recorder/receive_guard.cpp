// Guarded receives: a pending receive's buffer read or written by the
// application before the receive completes (MPI-4.0 §3.7.2: "the receive
// buffer must not be accessed" until a Wait/Test completes the request).
// Payload hashes (receive-buffer-written) see only writes after the data
// arrived; reads, and writes MPI then overwrites, need page protection.
//
// After MPI_Irecv (or MPI_Start/Startall of a persistent receive) returns,
// the pages holding the buffer are PROT_NONE. MPI writes the data during any
// later call, so the outermost wrapper of every call makes them accessible
// again for the call (GuardWindow) and protects the ones of receives still
// pending when it returns. The completion (done_request) releases a guard.
//
// A SIGSEGV on a guarded page (SEGV_ACCERR) is ours:
// - at an address inside an armed buffer: every guarded page opens (the
//   unwinder may read memory sharing one) and the stack is unwound from the
//   fault's context. MPI code on it (an MPI call the injector does not
//   wrap): MPI's own access, the pages stay open until the next wrapper
//   returns. Otherwise the finding: a line goes to ranks/N.accessed,
//   "<post seq> <read|write> <last seq> <address-hex> <pc+1-hex>
//   <return-address-hex> ..." (read/write from the page-fault error code,
//   REG_ERR bit 1; the pc is written +1 because readers look up return
//   addresses - 1); the receive is disarmed (one line per request) and the
//   pages of the armed ones are protected again;
// - elsewhere on the page (another variable sharing it, malloc's chunk
//   headers, whoever touches it): not a finding; the page is opened, the
//   instruction single-stepped (EFLAGS.TF) and the SIGTRAP that follows
//   protects the page again;
// - on another thread: every guarded page opens (not judged).
// Anything else goes to the previous handler (signals.cpp records fatal
// signals).
//
// Windows (guard_windows, one-sided; handlers_rma.cpp): a window's memory is
// guarded from its creation to Win_free, and a guard of a window is never
// disarmed by an access: every access of the rank's own code is a line of
// ranks/N.winaccess, "<window-id-hex> <read|write> <last seq> <thread> <fault
// ns> <access ns> <address-hex> <pc+1-hex> <return-address-hex> ..." (thread 0
// and equal times with one thread; see g_threaded), and the instruction is then
// single-stepped like a neighbour's access. The rma detector decides which of
// them conflict with another rank's operation on that memory. A loop over
// window memory costs a fault, an unwind and a trap per access: after
// kSegmentFaults accesses between two MPI calls the pages stay open until
// the next call returns (later accesses of that stretch are not seen), and
// after kMaxWindowLines lines in all window guards end (a note line
// "capped" says so).
//
// Limits (detectors/usage/README.md): x86-64 Linux; guard_receives only when
// the application does not run MPI_THREAD_MULTIPLE and no noise send thread
// runs (one thread calls MPI); guard_windows with threads in the threaded
// mode (g_threaded: every access faults, another thread touching a page while
// one steps through it is not seen); contiguous datatypes; a buffer on the
// stack is guarded only on the pages it fills alone (the program's frames
// and the signal frame share the others); the kernel reports a system call's
// access to a guarded page as EFAULT, not as a fault (read(2) into a pending
// buffer is missed; I/O from memory sharing a page with one fails).
#include "receive_guard.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "clock.hpp"
#include "handlers.hpp"
#include "signal_format.hpp"
#include "state.hpp"
#include "scalefuzz/injector/env.hpp"

namespace scalefuzz::inject {

namespace guard_detail {
constinit bool g_on = false;
constinit bool g_protected = false;
constinit int g_armed = 0;
constinit bool g_receives = false;
constinit bool g_windows = false;
}  // namespace guard_detail

using namespace guard_detail;

namespace {

#if defined(__x86_64__) && defined(__linux__)
constexpr bool kSupported = true;
#else
constexpr bool kSupported = false;
#endif

struct Guard {
  std::uint64_t request = 0;
  std::uint64_t post_seq = 0;
  std::uintptr_t buf_lo = 0, buf_hi = 0;    // the buffer [lo, hi)
  std::uintptr_t page_lo = 0, page_hi = 0;  // the pages protected for it
  bool armed = false;                       // pending and not reported yet
  std::uint32_t window = 0;                 // nonzero: window memory of that window id (never disarmed by an access)
};

constexpr int kMaxGuards = 128;  // more pending receives at once: the extra ones are not guarded
Guard g_guards[kMaxGuards];
int g_count = 0;
std::uintptr_t g_page = 4096;
int g_fd = -1;
int g_fd_win = -1;  // ranks/N.winaccess
// Window accesses between two MPI calls before the pages stay open until the
// next call returns, and window lines in all (a bound on the cost and the file).
constexpr int kSegmentFaults = 64;
constexpr long kMaxWindowLines = 20000;
int g_segment_faults = 0;
// guard_windows: the handlers run on an alternate signal stack, so a Get's
// buffer on the stack can be guarded on the pages it shares with the
// program's frames (each other access to them is single-stepped).
bool g_altstack = false;
long g_window_lines = 0;
std::uintptr_t g_mpi_lo = 0, g_mpi_hi = 0;      // the MPI library's mapped range
std::uintptr_t g_stack_lo = 0, g_stack_hi = 0;  // the MPI thread's stack
std::uintptr_t g_self_lo = 0, g_self_hi = 0;    // this library's text
const trace::LiveState* g_live = nullptr;       // the last record's seq
pid_t g_mpi_thread = 0;                          // the thread that set the mode up
// Pages opened for the single-stepped instruction (an unaligned access can
// span two).
std::uintptr_t g_step_pages[4];
volatile sig_atomic_t g_steps = 0;
struct sigaction g_prev_segv, g_prev_trap;

// guard_windows in a program with several threads calling MPI or touching
// memory (MPI_THREAD_MULTIPLE, e.g. OpenMP around one-sided calls): the
// pages can no longer be opened for the length of an MPI call, since another
// thread runs the program's code meanwhile. They stay protected from the
// guard's arming to its release; every access faults on the thread that
// makes it: inside a wrapper (tl_depth > 0) it is MPI's (or the injector's)
// and is stepped over unnoted, otherwise it is the program's, noted with the
// thread and the time (the rma detector orders it against the other
// threads' MPI calls by time, the only order it can see). The guard table
// is shared by the threads under g_table.
bool g_threaded = false;
std::atomic_flag g_table = ATOMIC_FLAG_INIT;
struct TableLock {
  bool held;
  TableLock() : held(g_threaded) {
    if (held)
      while (g_table.test_and_set(std::memory_order_acquire)) {
      }
  }
  ~TableLock() {
    if (held) g_table.clear(std::memory_order_release);
  }
  TableLock(const TableLock&) = delete;
  TableLock& operator=(const TableLock&) = delete;
};
// The faulting thread's own single-stepped pages (threaded mode).
thread_local constinit std::uintptr_t tl_step_pages[4] = {};
thread_local constinit int tl_steps = 0;

void set_pages(std::uintptr_t lo, std::uintptr_t hi, int prot) {
  if (hi > lo) (void)::mprotect(reinterpret_cast<void*>(lo), hi - lo, prot);
}

bool page_of_armed(std::uintptr_t page) {
  for (int i = 0; i < g_count; ++i)
    if (g_guards[i].armed && page >= g_guards[i].page_lo && page < g_guards[i].page_hi) return true;
  return false;
}

bool in(std::uintptr_t a, std::uintptr_t lo, std::uintptr_t hi) { return a >= lo && a < hi; }

// Innermost first, from the fault's context; frames[0] is the faulting pc.
int unwind(ucontext_t* uc, std::uint64_t* frames, int max) {
  unw_cursor_t cursor;
  if (unw_init_local2(&cursor, reinterpret_cast<unw_context_t*>(uc), UNW_INIT_SIGNAL_FRAME) != 0) return 0;
  int n = 0;
  do {
    unw_word_t ip = 0;
    if (unw_get_reg(&cursor, UNW_REG_IP, &ip) != 0 || ip == 0) break;
    frames[n++] = ip;
  } while (n < max && unw_step(&cursor) > 0);
  return n;
}

// The faulting thread runs MPI (or the injector) code: MPI's access. (The
// handlers read only this file's statics: heap objects, the State among
// them, and the initial thread's TLS may share a guarded page.)
bool mpi_on_stack(const std::uint64_t* frames, int n) {
  for (int i = 0; i < n; ++i)
    if (in(frames[i], g_mpi_lo, g_mpi_hi) || in(frames[i], g_self_lo, g_self_hi)) return true;
  return false;
}

using signal_format::put_dec;
using signal_format::put_hex;

// One line of ranks/N.accessed (`window` false: "<post seq> ...") or of
// ranks/N.winaccess (`window` true: "<window-id-hex> ...").
void report_line(const Guard& g, bool window, std::uintptr_t address, bool write, const std::uint64_t* frames, int n,
                 std::uint64_t t_fault = 0) {
  const int fd = window ? g_fd_win : g_fd;
  if (fd < 0) return;
  char line[1024];
  char* p = window ? put_hex(line, g.window) : put_dec(line, g.post_seq);
  std::memcpy(p, write ? " write " : " read ", write ? 7 : 6);
  p += write ? 7 : 6;
  p = put_dec(p, g_live != nullptr ? g_live->current_seq : 0);
  if (window) {  // the thread (0: one thread runs the program), the fault's time and the access's (after a hold)
    const std::uint64_t t = now_ns();
    *p++ = ' ';
    p = put_dec(p, g_threaded ? static_cast<std::uint64_t>(syscall(SYS_gettid)) : 0);
    *p++ = ' ';
    p = put_dec(p, t_fault != 0 ? t_fault : t);
    *p++ = ' ';
    p = put_dec(p, t);
  }
  *p++ = ' ';
  p = put_hex(p, address);
  for (int i = 0; i < n && p < line + sizeof line - 24; ++i) {
    *p++ = ' ';
    p = put_hex(p, frames[i] + (i == 0 ? 1 : 0));
  }
  *p++ = '\n';
  (void)!::write(fd, line, static_cast<std::size_t>(p - line));
}

// The guard whose buffer holds `address`: pending receive/Get buffers first,
// window memory after (a Get's buffer may lie in a window); -1 for none.
int guard_hit(std::uintptr_t address) {
  for (int i = 0; i < g_count; ++i)
    if (g_guards[i].armed && g_guards[i].window == 0 && in(address, g_guards[i].buf_lo, g_guards[i].buf_hi)) return i;
  for (int i = 0; i < g_count; ++i)
    if (g_guards[i].armed && g_guards[i].window != 0 && in(address, g_guards[i].buf_lo, g_guards[i].buf_hi)) return i;
  return -1;
}

bool fault_is_write(const ucontext_t* uc) {
#if defined(__x86_64__)
  return (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
  (void)uc;
  return false;
#endif
}

// After guard `hit`'s access was reported: a receive/Get buffer is reported
// once per request (disarmed: its pages stay open unless another guard
// shares them); window memory stays guarded until ranks/N.winaccess reaches
// its cap, where every window is unguarded (documented limit: the log must
// stay bounded).
void after_report(int hit) {
  if (g_guards[hit].window == 0) {
    g_guards[hit].armed = false;
    --g_armed;
    return;
  }
  if (++g_window_lines < kMaxWindowLines) return;
  (void)!::write(g_fd_win, "capped\n", 7);
  for (int i = 0; i < g_count; ++i)
    if (g_guards[i].window != 0 && g_guards[i].armed) g_guards[i].armed = false, --g_armed;
}

// Lets the faulting instruction through its page (`page`), protected again
// by the SIGTRAP after it.
void step_over(ucontext_t* uc, std::uintptr_t page) {
  if (g_steps < static_cast<sig_atomic_t>(sizeof g_step_pages / sizeof g_step_pages[0])) {
    g_step_pages[g_steps] = page;
    g_steps = g_steps + 1;
    set_pages(page, page + g_page, PROT_READ | PROT_WRITE);
#if defined(__x86_64__)
    uc->uc_mcontext.gregs[REG_EFL] |= 0x100;  // TF: SIGTRAP after the instruction
#endif
  } else {
    open_window();
  }
}

void chain(int sig, siginfo_t* si, void* uc, const struct sigaction& prev) {
  if ((prev.sa_flags & SA_SIGINFO) != 0 && prev.sa_sigaction != nullptr) {
    prev.sa_sigaction(sig, si, uc);
  } else if (prev.sa_handler == SIG_DFL) {
    sigaction(sig, &prev, nullptr);
    raise(sig);  // pending until this handler returns: the default action then
  } else if (prev.sa_handler != SIG_IGN) {
    prev.sa_handler(sig);
  }
}

// Threaded mode: protect the pages of every armed guard again / open them all.
void protect_armed() {
  for (int i = 0; i < g_count; ++i)
    if (g_guards[i].armed) set_pages(g_guards[i].page_lo, g_guards[i].page_hi, PROT_NONE);
}
void unprotect_all() {
  for (int i = 0; i < g_count; ++i) set_pages(g_guards[i].page_lo, g_guards[i].page_hi, PROT_READ | PROT_WRITE);
}

// Threaded mode: this thread's instruction goes through its page, which its
// own SIGTRAP protects again (another thread touching the page meanwhile is
// not seen; one whose step the re-protection overtakes faults again).
void step_over_threaded(ucontext_t* uc, std::uintptr_t page) {
  if (tl_steps < 4) tl_step_pages[tl_steps++] = page;
  else tl_steps = 5;  // more pages than noted (a rep-prefixed string instruction): all armed ones are protected again
  set_pages(page, page + g_page, PROT_READ | PROT_WRITE);
#if defined(__x86_64__)
  uc->uc_mcontext.gregs[REG_EFL] |= 0x100;
#endif
}

// Threaded mode: the program's access to a guarded page is held (the thread
// sleeps in the handler before the access runs) when another thread may run
// meanwhile: a thread other than the one that set MPI up, or any thread
// inside an OpenMP parallel region. Whatever MPI call another thread of the
// rank enters during the hold cannot be ordered after the access by the
// program's own synchronization (the accessing thread is stuck before it), so
// the detector takes the access as spanning [fault, access]. kHoldNs covers a
// lock round trip plus a Get or Put and the unlock on a loaded 2-core machine
// (Win_lock took up to 19 ms there, bench/rma/README.md); kMaxHolds bounds
// the cost per rank (a loop over window memory is held only at its start).
constexpr std::uint64_t kHoldNs = 25'000'000;
constexpr int kMaxHolds = 64;
std::atomic<int> g_holds{0};
int (*g_omp_in_parallel)() = nullptr;  // libgomp/libomp's, when the program is OpenMP

bool hold_wanted() {
  const bool other = static_cast<pid_t>(syscall(SYS_gettid)) != g_mpi_thread ||
                     (g_omp_in_parallel != nullptr && g_omp_in_parallel() != 0);
  return other && g_holds.fetch_add(1, std::memory_order_relaxed) < kMaxHolds;
}

void hold() {
  timespec ts{0, static_cast<long>(kHoldNs)};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

std::atomic<int> g_completion_holds{0};

void on_segv_threaded(int sig, siginfo_t* si, void* ctx) {
  auto* uc = static_cast<ucontext_t*>(ctx);
  const auto address = reinterpret_cast<std::uintptr_t>(si->si_addr);
  const std::uintptr_t page = address & ~(g_page - 1);
  std::uint64_t frames[32];
  int n = -1;
  std::uint64_t t_fault = 0;
  for (int pass = 0;; ++pass) {
    {
      TableLock lock;
      const bool ours = si->si_code == SEGV_ACCERR && g_on && page_of_armed(page);
      if (!ours && pass > 0) return;  // released while held: the access goes through
      if (ours) {
        const int hit = guard_hit(address);
        // Inside a wrapper: MPI's access (or the injector's); a neighbour of a guarded buffer.
        if (tl_depth > 0 || hit < 0) return step_over_threaded(uc, page);
        unprotect_all();  // the unwinder may read memory sharing a guarded page
        if (n < 0) n = unwind(uc, frames, 32);
        if (mpi_on_stack(frames, n)) {
          protect_armed();
          return step_over_threaded(uc, page);
        }
        if (pass == 0) {
          t_fault = now_ns();
          // A pending Get's buffer is evidence already (the guard is armed
          // from the issue to the completion); window memory is held.
          if (g_guards[hit].window != 0 && hold_wanted()) {
            protect_armed();
            goto held;  // the lock is released first
          }
        }
        const bool window = g_guards[hit].window != 0;
        report_line(g_guards[hit], window, address, fault_is_write(uc), frames, n, t_fault);
        after_report(hit);
        protect_armed();
        if (page_of_armed(page)) step_over_threaded(uc, page);
        return;
      }
      if (g_on) unprotect_all();  // not ours: the fatal-signal handler walks the stack
    }
    return chain(sig, si, ctx, g_prev_segv);
  held:
    hold();
  }
}

void on_segv(int sig, siginfo_t* si, void* ctx) {
  if (g_threaded) return on_segv_threaded(sig, si, ctx);
  auto* uc = static_cast<ucontext_t*>(ctx);
  const auto address = reinterpret_cast<std::uintptr_t>(si->si_addr);
  const std::uintptr_t page = address & ~(g_page - 1);
  if (si->si_code == SEGV_ACCERR && static_cast<pid_t>(syscall(SYS_gettid)) != g_mpi_thread) {
    // Another thread (its accesses are not judged) on a page of a guard,
    // maybe opened meanwhile by the MPI thread: open all, retry.
    for (int i = 0; i < g_count; ++i)
      if (in(page, g_guards[i].page_lo, g_guards[i].page_hi)) return open_window();
    return chain(sig, si, ctx, g_prev_segv);
  }
  if (!g_protected || si->si_code != SEGV_ACCERR || !page_of_armed(page)) {
    if (g_protected) open_window();  // the fatal-signal handler walks the stack too
    return chain(sig, si, ctx, g_prev_segv);
  }
  const int hit = guard_hit(address);
  if (hit < 0) return step_over(uc, page);  // another variable on a guarded page: let this one instruction through
  const bool window = g_guards[hit].window != 0;
  if (window && ++g_segment_faults > kSegmentFaults) return open_window();  // until the next MPI call returns
  // Every guarded page opens first: the unwinder reads memory that may
  // share one (the link maps of libraries MPI loaded later live on the heap),
  // and a fault inside this handler would kill the rank.
  open_window();
  std::uint64_t frames[32];
  const int n = unwind(uc, frames, 32);
  if (mpi_on_stack(frames, n)) return;  // MPI's own access: open until the next wrapper returns
  report_line(g_guards[hit], window, address, fault_is_write(uc), frames, n);
  after_report(hit);
  close_window();
  if (window && g_guards[hit].armed) step_over(uc, page);
}

void on_trap(int sig, siginfo_t* si, void* ctx) {
  auto* uc = static_cast<ucontext_t*>(ctx);
  if (g_threaded) {
    if (tl_steps == 0) return chain(sig, si, ctx, g_prev_trap);
#if defined(__x86_64__)
    uc->uc_mcontext.gregs[REG_EFL] &= ~static_cast<greg_t>(0x100);
#endif
    TableLock lock;
    if (tl_steps > 4) protect_armed();
    else
      for (int k = 0; k < tl_steps; ++k)
        if (page_of_armed(tl_step_pages[k])) set_pages(tl_step_pages[k], tl_step_pages[k] + g_page, PROT_NONE);
    tl_steps = 0;
    return;
  }
  if (g_steps == 0) return chain(sig, si, ctx, g_prev_trap);
#if defined(__x86_64__)
  uc->uc_mcontext.gregs[REG_EFL] &= ~static_cast<greg_t>(0x100);
#endif
  for (int k = 0; k < g_steps; ++k)
    if (g_protected && page_of_armed(g_step_pages[k])) set_pages(g_step_pages[k], g_step_pages[k] + g_page, PROT_NONE);
  g_steps = 0;
}

// The address range of the shared object holding PMPI_Send (libmpi).
void find_mpi_library() {
  // Looked up, not &PMPI_Send: a data reference would be bound when the
  // library loads, and mpiexec and the proxy load it without libmpi.
  void* pmpi_send = dlsym(RTLD_DEFAULT, "PMPI_Send");
  if (pmpi_send == nullptr) return;
  const auto [lo, hi] = module_range(reinterpret_cast<std::uintptr_t>(pmpi_send));
  if (hi > lo) g_mpi_lo = lo, g_mpi_hi = hi;
}

// Threaded mode: `a` lies on the calling thread's stack and the thread is
// not the one the handlers have an alternate signal stack for (a fault there
// would have no stack to run on): not guarded.
bool on_other_thread_stack(std::uintptr_t a) {
  if (static_cast<pid_t>(syscall(SYS_gettid)) == g_mpi_thread) return false;
  pthread_attr_t attr;
  bool on = false;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* lo = nullptr;
    std::size_t size = 0;
    if (pthread_attr_getstack(&attr, &lo, &size) == 0)
      on = in(a, reinterpret_cast<std::uintptr_t>(lo), reinterpret_cast<std::uintptr_t>(lo) + size);
    pthread_attr_destroy(&attr);
  }
  return on;
}

}  // namespace

namespace guard_detail {

void open_window() {
  if (g_threaded) return;  // the pages stay protected (on_segv_threaded)
  for (int i = 0; i < g_count; ++i)
    if (g_guards[i].armed) set_pages(g_guards[i].page_lo, g_guards[i].page_hi, PROT_READ | PROT_WRITE);
  g_protected = false;
}

void close_window_after_call() {
  if (g_threaded) return;
  g_segment_faults = 0;
  close_window();
}

void close_window() {
  if (g_threaded) return;
  // Set first: a guarded stack page faults on this very function's frame
  // once protected, and the handler must know the fault is ours.
  g_protected = g_armed != 0;
  for (int i = 0; i < g_count; ++i)
    if (g_guards[i].armed) set_pages(g_guards[i].page_lo, g_guards[i].page_hi, PROT_NONE);
}

void release_slow(std::uint64_t request) {
  if (g_protected) open_window();  // called inside a wrapper: already open
  TableLock lock;
  if (g_threaded) unprotect_all();  // the released pages open, the others are protected again below
  for (int i = 0; i < g_count;) {
    if (request == 0 || (g_guards[i].window == 0 && g_guards[i].request == request)) {
      if (g_guards[i].armed) --g_armed;
      g_guards[i] = g_guards[--g_count];
    } else {
      ++i;
    }
  }
  if (request == 0) g_on = false;  // MPI_Finalize
  if (g_threaded && g_on) protect_armed();
}

}  // namespace guard_detail

void setup_receive_guard(const char* ranks_dir, int rank, bool single_threaded) {
  // The noise knobs' variables (guard_receives, guard_windows).
  auto asked = [](const char* knob) {
    const char* v = std::getenv(noise::find_knob(knob)->env.data());
    return v != nullptr && v[0] == '1';
  };
  g_receives = asked("guard_receives");
  g_windows = asked("guard_windows");
  if (!g_receives && !g_windows) return;
  if (!kSupported || (!single_threaded && !g_windows)) {
    std::fprintf(stderr, "scalefuzz injector: %s: %s; nothing is guarded\n",
                 g_receives ? "guard_receives" : "guard_windows",
                 kSupported ? "needs one thread calling MPI (no MPI_THREAD_MULTIPLE, no noise send thread)"
                            : "x86-64 Linux only");
    return;
  }
  if (!single_threaded) {  // windows and one-sided buffers only, each access faulting (g_threaded)
    if (g_receives)
      std::fprintf(stderr, "scalefuzz injector: guard_receives: needs one thread calling MPI (no MPI_THREAD_MULTIPLE, "
                           "no noise send thread); only guard_windows runs\n");
    g_receives = false;
    g_threaded = true;
  }
  g_page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::string path = std::string(ranks_dir) + "/" + std::to_string(rank) + ".accessed";
  g_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (g_fd < 0) return;
  if (g_windows) {
    const std::string win = std::string(ranks_dir) + "/" + std::to_string(rank) + ".winaccess";
    g_fd_win = ::open(win.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  }
  find_mpi_library();
  // Resolved now: dlsym is no call for a signal handler.
  g_omp_in_parallel = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "omp_in_parallel"));
  g_self_lo = g_state->self_begin, g_self_hi = g_state->self_end;
  g_live = g_state->live;
  g_mpi_thread = static_cast<pid_t>(syscall(SYS_gettid));
  // The events file's helper thread writes the State (heap, maybe on a
  // guarded page) with every signal blocked: a fault there would kill the
  // rank. The recording thread grows the file itself in this mode.
  g_state->events.stop_prefault();
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* lo = nullptr;
    std::size_t size = 0;
    if (pthread_attr_getstack(&attr, &lo, &size) == 0)
      g_stack_lo = reinterpret_cast<std::uintptr_t>(lo), g_stack_hi = g_stack_lo + size;
    pthread_attr_destroy(&attr);
  }
  struct sigaction sa {};
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  if (g_windows) {
    constexpr std::size_t kAltStack = 256 * 1024;  // libunwind and the line writer run there
    void* alt = ::mmap(nullptr, kAltStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    stack_t ss{};
    ss.ss_sp = alt;
    ss.ss_size = kAltStack;
    if (alt != MAP_FAILED && sigaltstack(&ss, nullptr) == 0) {
      g_altstack = true;
      sa.sa_flags |= SA_ONSTACK;
    }
  }
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &g_prev_segv);
  sa.sa_sigaction = on_trap;
  sigaction(SIGTRAP, &sa, &g_prev_trap);
  g_on = true;
}

namespace {
// Arms `g`. On the stack (`stack_alone`) only the pages the memory fills
// alone are protected: the neighbouring frames run on the others.
void add_guard(Guard g, bool stack_alone) {
  if (stack_alone && in(g.buf_lo, g_stack_lo, g_stack_hi)) {
    g.page_lo = (g.buf_lo + g_page - 1) & ~(g_page - 1);
    g.page_hi = g.buf_hi & ~(g_page - 1);
    if (g.page_hi <= g.page_lo) return;
  }
  if (g_threaded && on_other_thread_stack(g.buf_lo)) return;
  TableLock lock;
  if (g_count == kMaxGuards) return;
  g_guards[g_count++] = g;
  ++g_armed;
  if (g_threaded) set_pages(g.page_lo, g.page_hi, PROT_NONE);  // from now on (no wrapper closes it)
}
}  // namespace

void guard_receive(std::uint64_t request, std::uint64_t post_seq, const void* buffer, std::int64_t bytes,
                   bool stack_pages) {
  if (!g_on || buffer == nullptr || bytes <= 0 || g_count == kMaxGuards) return;
  const auto lo = reinterpret_cast<std::uintptr_t>(buffer);
  const auto hi = lo + static_cast<std::uintptr_t>(bytes);
  add_guard(Guard{request, post_seq, lo, hi, lo & ~(g_page - 1), (hi + g_page - 1) & ~(g_page - 1), true},
            !(stack_pages && g_altstack));
}

void hold_before_completion() {
  if (!g_on || !g_threaded || g_completion_holds.fetch_add(1, std::memory_order_relaxed) >= kMaxHolds) return;
  hold();
}

void guard_window(std::uint32_t window_id, const void* base, std::int64_t bytes) {
  if (!g_on || !g_windows || g_fd_win < 0 || base == nullptr || bytes <= 0 || g_count == kMaxGuards ||
      g_window_lines >= kMaxWindowLines)
    return;
  const auto lo = reinterpret_cast<std::uintptr_t>(base);
  const auto hi = lo + static_cast<std::uintptr_t>(bytes);
  add_guard(Guard{0, 0, lo, hi, lo & ~(g_page - 1), (hi + g_page - 1) & ~(g_page - 1), true, window_id}, true);
}

void unguard_window(std::uint32_t window_id, const void* base) {
  if (!g_on || !g_windows) return;
  if (g_protected) open_window();  // called inside a wrapper: already open
  TableLock lock;
  if (g_threaded) unprotect_all();
  for (int i = 0; i < g_count;) {
    if (g_guards[i].window == window_id &&
        (base == nullptr || g_guards[i].buf_lo == reinterpret_cast<std::uintptr_t>(base))) {
      if (g_guards[i].armed) --g_armed;
      g_guards[i] = g_guards[--g_count];
    } else {
      ++i;
    }
  }
  if (g_threaded) protect_armed();
}

}  // namespace scalefuzz::inject
