// What the usage checks need to know about buffers at run time (issue 21).
//
// Stack buffers, for the extent and C-type checks:
// a buffer on the stack is a local variable of some frame, and its debug
// information (DW_OP_fbreg offsets) is relative to that frame's CFA or frame
// pointer. At the call the wrapper knows the application caller's stack
// pointer (the wrapper's CFA) and its frame pointer (saved by the wrapper's
// prologue); with the caller's CFI the analysis turns them into the frame's
// CFA. ranks/N.frames (text, append-only):
//   "<seq> <site> <sp-hex> <fp-hex>"
// written when a call's send or receive buffer lies between the caller's
// stack pointer and the top of the thread's stack, and only when the pair
// differs from the last one written for that call site (a loop writes one
// line): a record uses the latest line of its site at or before its seq.
//
// Local concurrency: a nonblocking send's buffer must not change until the
// send completes (MPI-4.0 §3.7.2). buffer_checksum() hashes it at the post
// and at the completion; ranks/N.modified gets "<post seq> <completion seq>"
// when they differ. The hash covers the whole buffer up to 4 KiB, else its
// first and last 2 KiB (the cost stays bounded per call; halo and boundary
// writes, the usual culprits, touch the ends).
//
// Nonblocking collectives: the send buffer is hashed at the post and at the
// completion like a nonblocking send's. The receive buffer cannot be
// compared with a sender's payload, so it is hashed right after the post
// (and after every later nonblocking-collective post while it is pending)
// and again at the entry of the rank's next MPI call: without a progress
// thread MPI writes it only inside MPI calls, so a difference with no MPI
// call in between is the application's write ("<post> <completion> recv";
// reported only when the completion then overwrote it, i.e. the hash at the
// completion differs from the entry's too). Off with a noise send thread or
// MPI_THREAD_MULTIPLE.
//
// Pending receives: a receive buffer written by the application while the
// receive is pending holds, at completion, bytes other than the ones sent.
// Sends store 24 bits of the payload's hash in their record and nonblocking
// receives the hash of the received bytes in their RequestDone record
// (Event::payload_sum); the usage detector compares matched pairs.
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "handlers.hpp"
#include "types.hpp"
#include "scalefuzz/injector/env.hpp"

namespace scalefuzz::inject {

namespace usage_detail {
int g_fd_frames = -1;
LastFrame g_last_frames[256];
}  // namespace usage_detail
using usage_detail::g_fd_frames;

namespace {
int fd_modified = -1;

// This thread's stack top; 0 = not known yet, 1 = unknown.
thread_local constinit std::uintptr_t tl_stack_hi = 0;

std::uintptr_t stack_hi() {
  if (tl_stack_hi != 0) return tl_stack_hi;
  tl_stack_hi = 1;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return tl_stack_hi;
  void* lo = nullptr;
  std::size_t size = 0;
  if (pthread_attr_getstack(&attr, &lo, &size) == 0) tl_stack_hi = reinterpret_cast<std::uintptr_t>(lo) + size;
  pthread_attr_destroy(&attr);
  return tl_stack_hi;
}

}  // namespace

bool g_send_checksums = false;
bool g_payload_sums = false;
bool g_icoll_receive_sums = false;

void open_frames_file(const char* path) {
  // SCALEFUZZ_FRAMES=0 / SCALEFUZZ_SEND_CHECKSUMS=0: off (to measure their
  // cost; without frames the checks see heap blocks and globals only).
  auto off = [](injector::Env id) { return !injector::env_on_unless_zero(id); };
  if (!off(injector::Env::Frames)) g_fd_frames = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  g_payload_sums = !off(injector::Env::PayloadSums);
  if (off(injector::Env::SendChecksums)) return;
  std::string modified = path;
  modified.replace(modified.size() - std::strlen("frames"), std::strlen("frames"), "modified");
  fd_modified = ::open(modified.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  g_send_checksums = fd_modified >= 0;
}

namespace {
std::uint64_t hash_bytes(std::uint64_t h, const unsigned char* p, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  for (; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}
}  // namespace

std::uint64_t buffer_checksum_large(const void* buffer, std::int64_t bytes) {
  constexpr std::size_t kWhole = 4096, kEnd = 2048;
  const auto* p = static_cast<const unsigned char*>(buffer);
  const auto n = static_cast<std::size_t>(bytes);
  std::uint64_t h = 0xcbf29ce484222325ull;
  if (n <= kWhole) h = hash_bytes(h, p, n);
  else h = hash_bytes(hash_bytes(h, p, kEnd), p + n - kEnd, kEnd);
  return h | 1;  // 0 means "no checksum taken"
}

void note_modified_buffer(std::uint64_t post_seq, std::uint64_t completion_seq, bool receive) {
  if (fd_modified < 0) return;
  char line[64];
  const int n = std::snprintf(line, sizeof line, "%llu %llu%s\n", static_cast<unsigned long long>(post_seq),
                              static_cast<unsigned long long>(completion_seq), receive ? " recv" : "");
  if (n > 0) (void)!::write(fd_modified, line, static_cast<std::size_t>(n));
}

void note_stack_frame(std::uint64_t seq, std::uint32_t site, std::uintptr_t sp, std::uintptr_t fp, std::uintptr_t sb,
                      std::uintptr_t rb) {
  const std::uintptr_t hi = stack_hi();
  if (hi <= 1 || !((sb >= sp && sb < hi) || (rb >= sp && rb < hi))) return;
  usage_detail::g_last_frames[site & 255u] = usage_detail::LastFrame{site, sp, fp};
  char line[96];
  const int n = std::snprintf(line, sizeof line, "%llu %u %lx %lx\n", static_cast<unsigned long long>(seq), site,
                              static_cast<unsigned long>(sp), static_cast<unsigned long>(fp));
  if (n > 0) (void)!::write(g_fd_frames, line, static_cast<std::size_t>(n));
}

}  // namespace scalefuzz::inject
