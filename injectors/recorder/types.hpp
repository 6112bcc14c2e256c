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
  bool contiguous = false;  // lb 0 and extent == size: count elements are count x size bytes from the buffer
};

// Key and size of `t` (cached; the first use writes the N.types line).
TypeInfo type_info(MPI_Datatype t);
// Drops the cache entry of a handle about to be freed (MPI reuses handles).
void forget_type(MPI_Datatype t);
// trace::ReduceOp code of `op`.
std::uint8_t reduce_op_code(MPI_Op op);

// Opens ranks/N.types, ranks/N.errors and ranks/N.frames (state.cpp, at MPI_Init).
void open_usage_files(const char* ranks_dir, int rank);
// At a call's entry: when its send or receive buffer lies on the calling
// thread's stack, notes the caller's stack and frame pointer in ranks/N.frames
// (handlers_usage_buffers.cpp) so the usage checks can find the variable.
void note_stack_buffers(const Call& c, std::uint64_t seq, std::uint32_t site);
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
void note_modified_buffer(std::uint64_t post_seq, std::uint64_t completion_seq);
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
