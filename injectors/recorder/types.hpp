// Datatype signatures and reduction ops for the usage checks (format 2):
// every datatype handle a call names gets a key (trace/format.hpp kType*),
// described once per rank in ranks/N.types with its flattened primitive
// signature; derived types are flattened through MPI_Type_get_envelope /
// get_contents at first use and cached per handle until MPI_Type_free.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <cstring>

namespace scalefuzz::inject {

struct Call;

struct TypeInfo {
  std::uint32_t key = 0;
  std::int32_t size = 0;  // MPI_Type_size
  bool contiguous = false;  // lb 0, extent and true extent == size: count elements are count x size bytes from the buffer
};

// Key and size of `t` (cached; the first use writes the N.types line).
TypeInfo type_info_slow(MPI_Datatype t);
namespace types_detail {
// The thread's last answer: a loop sends one datatype again and again (~30
// instructions less per typed call than the locked map; inline: ~15 less
// again than the call). forget_type() bumps the generation, which
// invalidates every thread's memo.
extern constinit unsigned g_type_generation;
extern thread_local constinit MPI_Datatype tl_memo_type;
extern thread_local constinit TypeInfo tl_memo;
extern thread_local constinit unsigned tl_memo_generation;
}  // namespace types_detail
inline TypeInfo type_info(MPI_Datatype t) {
  using namespace types_detail;
  // tl_memo_type is never MPI_DATATYPE_NULL once the generations match.
  if (t == tl_memo_type && tl_memo_generation == __atomic_load_n(&g_type_generation, __ATOMIC_ACQUIRE)) return tl_memo;
  return type_info_slow(t);
}
// Drops the cache entry of a handle about to be freed (MPI reuses handles).
void forget_type(MPI_Datatype t);
// trace::ReduceOp code of `op`.
std::uint8_t reduce_op_code_slow(MPI_Op op);
inline std::uint8_t reduce_op_code(MPI_Op op) {
#if defined(MPICH_VERSION)
  // MPICH numbers its predefined ops 0x58000001 (MPI_MAX) .. 0x5800000e
  // (MPI_NO_OP) in trace::ReduceOp's order (static_assert in types.cpp).
  const auto h = static_cast<std::uint32_t>(op) - 0x58000001u;
  if (h < 14u) return static_cast<std::uint8_t>(h + 1);
#endif
  return reduce_op_code_slow(op);
}

// Opens ranks/N.types, ranks/N.errors and ranks/N.frames (state.cpp, at MPI_Init).
void open_usage_files(const char* ranks_dir, int rank);
// At a call's entry: when its send or receive buffer lies on the calling
// thread's stack, notes the caller's stack and frame pointer in ranks/N.frames
// (handlers_usage_buffers.cpp) so the usage checks can find the variable.
// (note_stack_buffers() is inline in record.hpp: its first checks run on
// every call.)
namespace usage_detail {
// Last (sp, fp) written per call site (direct-mapped; callers hold the state lock).
struct LastFrame {
  std::uint32_t site = 0xFFFFFFFFu;
  std::uintptr_t sp = 0, fp = 0;
};
extern int g_fd_frames;  // ranks/N.frames, -1 when off
extern LastFrame g_last_frames[256];
}  // namespace usage_detail
// note_stack_buffers' rest: writes the line if sb or rb is on this thread's stack.
void note_stack_frame(std::uint64_t seq, std::uint32_t site, std::uintptr_t sp, std::uintptr_t fp, std::uintptr_t sb,
                      std::uintptr_t rb);
void open_frames_file(const char* path);
// Local concurrency (handlers_usage_buffers.cpp): a sampled hash of a
// nonblocking send's buffer at the post, compared at its completion; a
// difference is noted in ranks/N.modified.
extern bool g_send_checksums;  // on unless SCALEFUZZ_SEND_CHECKSUMS=0
std::uint64_t buffer_checksum_large(const void* buffer, std::int64_t bytes);
// Up to 16 bytes inline, with two overlapping loads that cover every byte
// (the common small message costs ~15 instructions, no call); longer
// buffers: buffer_checksum_large(). Never 0 (0 means "not taken").
inline std::uint64_t buffer_checksum(const void* buffer, std::int64_t bytes) {
  if (bytes > 16) return buffer_checksum_large(buffer, bytes);
  const auto* p = static_cast<const unsigned char*>(buffer);
  const auto n = static_cast<std::size_t>(bytes);
  std::uint64_t a = 0, b = 0;
  if (n >= 8) {
    std::memcpy(&a, p, 8);
    std::memcpy(&b, p + n - 8, 8);
  } else if (n >= 4) {
    std::uint32_t x, y;
    std::memcpy(&x, p, 4);
    std::memcpy(&y, p + n - 4, 4);
    a = x, b = y;
  } else if (n > 0) {
    a = std::uint64_t{p[0]} | std::uint64_t{p[n / 2]} << 8 | std::uint64_t{p[n - 1]} << 16;
  }
  std::uint64_t h = (a ^ 0xcbf29ce484222325ull ^ n) * 0x100000001b3ull;
  h = (h ^ (h >> 29) ^ b) * 0x9E3779B97F4A7C15ull;
  return (h ^ (h >> 32)) | 1;
}
// `receive`: a nonblocking collective's receive buffer written between two
// MPI calls of the rank while the collective was pending (the line gets a
// third field, "recv").
void note_modified_buffer(std::uint64_t post_seq, std::uint64_t completion_seq, bool receive = false);
// Receive buffers of nonblocking collectives are hashed at the post and
// compared at the next MPI call's entry: only sound while no other thread
// (a noise send thread, MPI_THREAD_MULTIPLE) can make MPI progress meanwhile.
extern bool g_icoll_receive_sums;
struct RequestInfo;
// At an MPI call's entry (`used`: the rank's records so far): a watched
// receive buffer hashed right after the rank's previous call and different
// now was written by the application (handlers_coll.cpp).
void check_collective_receive(RequestInfo& info, std::uint64_t used);
// Receive-buffer check: sends record the payload's hash and nonblocking
// receives the buffer's hash at completion (Event::payload_sum, 24 bits of
// buffer_checksum()); the usage detector compares the matched pair.
extern bool g_payload_sums;  // on unless SCALEFUZZ_PAYLOAD_SUMS=0
inline std::uint32_t payload_sum_of(std::uint64_t checksum) {
  const auto s = static_cast<std::uint32_t>(checksum >> 40);
  return s != 0 ? s : 1;  // 0 means "not taken"
}
// Installs the fatal-signal recorder writing ranks/N.signal (signals.cpp).
void install_signal_handlers(const char* ranks_dir, int rank);
// Appends a line to ranks/N.errors (errors.cpp).
void write_error_line(std::uint64_t seq, int code, const char* message);

// True while the recorder itself queries MPI about an application handle:
// the error handler then returns the error instead of aborting (errors.cpp),
// so a bad handle is reported by the application's own call.
extern thread_local constinit bool tl_probing;

}  // namespace scalefuzz::inject
