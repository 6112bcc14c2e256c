// Format 3: the packed events file, the compact encoding of a finished
// rank's trace. Header-only and allocation-light so that the injector encodes
// its own events at MPI_Finalize with the very code the tests and tools use.
//
// While a rank runs, ranks/N.events holds raw Event records (FileKind::Events)
// written through mmap: a SIGKILLed rank's file stays valid up to its last
// completed record. At MPI_Finalize the injector encodes the file into
// ranks/N.events.tmp and renames it over ranks/N.events (atomic: a reader
// sees either the whole raw file or the whole packed one, a rank killed while
// encoding leaves its raw file and a stray .tmp). Readers tell them apart by
// the header's kind.
//
// Packed file: FileHeader (kind PackedEvents, record_size = sizeof(Event),
// the size of a decoded record) followed by blocks:
//   BlockHeader {magic 'SFZB', nevents, payload_bytes, checksum}, payload
// Blocks decode independently (the coding context restarts at each block), so
// a reader streams them with memory of one block. Records are the dense seq
// 1, 2, 3 ... of the raw file (seq is implicit). One record of the payload:
//   op_class               1 byte
//   callsite               LEB128
//   changed-field mask     LEB128, bit i = field i below differs from the context
//   t_enter_ns             zigzag LEB128 of t_enter - previous record's t_enter
//   t_exit_ns              zigzag LEB128 of t_exit - t_enter (mod 2^64: 0 round-trips)
//   each changed field     zigzag LEB128 of value - context value (mod 2^64)
// The context of a record is the previous record of the block with the same
// (op_class, callsite) — kept in a direct-mapped table of kContextSlots
// slots, a colliding key replacing the slot's record — or the all-zero record
// when the slot holds another key: a call site repeats its peer, tag, sizes
// and buffers, so most fields cost nothing, and its request ids grow by a
// small step. Writer and reader update the table identically.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "scalefuzz/trace/format.hpp"

namespace scalefuzz::trace::packed {

inline constexpr std::uint32_t kBlockMagic = 0x425A4653u;  // "SFZB" little-endian
inline constexpr std::size_t kBlockEvents = 8192;          // records per block (writer's choice)
inline constexpr std::size_t kMaxBlockEvents = 1u << 16;   // readers refuse larger blocks
// A record never takes more than this many payload bytes (class byte + 26 varints of <= 10 bytes).
inline constexpr std::size_t kMaxRecordBytes = 1 + 10 * 26;

struct BlockHeader {
  std::uint32_t magic;          // kBlockMagic
  std::uint32_t nevents;        // records in this block (>= 1)
  std::uint32_t payload_bytes;  // bytes following this header
  std::uint32_t checksum;       // FNV-1a of the payload
};
static_assert(sizeof(BlockHeader) == 16);

inline std::uint32_t fnv1a(const unsigned char* p, std::size_t n) {
  std::uint32_t h = 2166136261u;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

// The fields coded against the context (get_fields() below gives their order).
inline constexpr int kFieldCount = 22;

// Stores a decoded field; values are truncated to the field's width exactly
// as the writer widened them, so every Event round-trips bit for bit.
inline void set_field(Event& e, int i, std::uint64_t v) {
  switch (i) {
    case 0: e.op = static_cast<std::uint16_t>(v); break;
    case 1: e.flags = static_cast<std::uint8_t>(v); break;
    case 2: e.peer = static_cast<std::int32_t>(v); break;
    case 3: e.tag = static_cast<std::int32_t>(v); break;
    case 4: e.comm = static_cast<std::uint32_t>(v); break;
    case 5: e.root = static_cast<std::int32_t>(v); break;
    case 6: e.count = static_cast<std::int64_t>(v); break;
    case 7: e.bytes = static_cast<std::int64_t>(v); break;
    case 8: e.request = v; break;
    case 9: e.buffer = v; break;
    case 10: e.status_source = static_cast<std::int32_t>(v); break;
    case 11: e.status_tag = static_cast<std::int32_t>(v); break;
    case 12: e.status_bytes = static_cast<std::int32_t>(v); break;
    case 13: e.error = static_cast<std::int32_t>(v); break;
    case 14: e.dtype = static_cast<std::uint32_t>(v); break;
    case 15: e.rdtype = static_cast<std::uint32_t>(v); break;
    case 16: e.scount_arg = static_cast<std::int32_t>(v); break;
    case 17: e.rcount_arg = static_cast<std::int32_t>(v); break;
    case 18: e.rbuffer = v; break;
    case 19: e.reduce_op = static_cast<std::uint8_t>(v); break;
    case 20: set_payload_sum(e, static_cast<std::uint32_t>(v)); break;
    case 21: e.repeats = static_cast<std::uint32_t>(v); break;
    default: break;
  }
}

inline std::uint64_t zigzag(std::uint64_t d) {
  auto s = static_cast<std::int64_t>(d);
  return (d << 1) ^ static_cast<std::uint64_t>(s >> 63);
}
inline std::uint64_t unzigzag(std::uint64_t z) { return (z >> 1) ^ (~(z & 1) + 1); }

inline unsigned char* put_varint(unsigned char* p, std::uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<unsigned char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<unsigned char>(v);
  return p;
}

// Context key of a record: (op_class, callsite).
inline std::uint64_t context_key(const Event& e) { return std::uint64_t{e.op_class} << 32 | e.callsite; }

// A record's coded fields, widened to 64 bits (signed fields sign-extended),
// in mask-bit order; set_field() above stores them back.
struct Fields {
  std::uint64_t v[kFieldCount];
};
inline void get_fields(const Event& e, Fields& f) {
  auto s = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
    f.v[0] = e.op, f.v[1] = e.flags, f.v[2] = s(e.peer), f.v[3] = s(e.tag), f.v[4] = e.comm, f.v[5] = s(e.root);
  f.v[6] = s(e.count), f.v[7] = s(e.bytes), f.v[8] = e.request, f.v[9] = e.buffer, f.v[10] = s(e.status_source);
  f.v[11] = s(e.status_tag), f.v[12] = s(e.status_bytes), f.v[13] = s(e.error), f.v[14] = e.dtype;
  f.v[15] = e.rdtype, f.v[16] = s(e.scount_arg), f.v[17] = s(e.rcount_arg), f.v[18] = e.rbuffer;
  f.v[19] = e.reduce_op, f.v[20] = payload_sum(e), f.v[21] = e.repeats;
}

// The per-block context table (see above). Slots of earlier blocks are told
// apart by a block generation, so starting a block costs nothing.
class ContextTable {
 public:
  static constexpr std::size_t kContextSlots = 1024;
  ContextTable() : slots_(kContextSlots) {}
  void new_block() { ++generation_; }
  // The context fields for `key` (zero if absent), to be updated in place
  // to the new record's fields.
  Fields& find(std::uint64_t key) {
    Slot& s = slot(key);
    if (s.generation != generation_ || s.key != key) {
      std::memset(&s.fields, 0, sizeof s.fields);
      s.key = key;
      s.generation = generation_;
    }
    return s.fields;
  }

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::uint64_t generation = 0;
    Fields fields{};
  };
  Slot& slot(std::uint64_t key) {
    std::uint64_t h = key * 0x9E3779B97F4A7C15ull;
    return slots_[static_cast<std::size_t>(h >> 54)];  // top 10 bits: kContextSlots == 1024
  }
  std::vector<Slot> slots_;
  std::uint64_t generation_ = 1;
};

// Encodes records into blocks. add() the records in seq order, then finish();
// `sink(const void*, size_t)` receives each block (header and payload) and
// returns false to stop (e.g. a write error), which add/finish report.
class Encoder {
 public:
  Encoder() { payload_.reserve(kBlockEvents * 16); }

  template <class Sink>
  bool add(const Event& e, Sink&& sink) {
    std::size_t at = payload_.size();
    payload_.resize(at + kMaxRecordBytes);
    unsigned char* p = payload_.data() + at;
    *p++ = e.op_class;
    p = put_varint(p, e.callsite);
    Fields& ctx = context_.find(context_key(e));
    Fields now;
    get_fields(e, now);
    std::uint64_t mask = 0;
    for (int i = 0; i < kFieldCount; ++i)
      if (now.v[i] != ctx.v[i]) mask |= std::uint64_t{1} << i;
    p = put_varint(p, mask);
    p = put_varint(p, zigzag(e.t_enter_ns - prev_enter_));
    p = put_varint(p, zigzag(e.t_exit_ns - e.t_enter_ns));
    for (std::uint64_t m = mask; m != 0; m &= m - 1) {
      int i = __builtin_ctzll(m);
      p = put_varint(p, zigzag(now.v[i] - ctx.v[i]));
    }
    payload_.resize(static_cast<std::size_t>(p - payload_.data()));
    ctx = now;
    prev_enter_ = e.t_enter_ns;
    if (++nevents_ == kBlockEvents) return flush(sink);
    return true;
  }

  template <class Sink>
  bool finish(Sink&& sink) {
    return nevents_ == 0 || flush(sink);
  }

 private:
  template <class Sink>
  bool flush(Sink&& sink) {
    BlockHeader h{kBlockMagic, static_cast<std::uint32_t>(nevents_), static_cast<std::uint32_t>(payload_.size()),
                  fnv1a(payload_.data(), payload_.size())};
    bool ok = sink(&h, sizeof h) && sink(payload_.data(), payload_.size());
    payload_.clear();
    context_.new_block();
    prev_enter_ = 0;
    nevents_ = 0;
    return ok;
  }

  std::vector<unsigned char> payload_;
  ContextTable context_;
  std::uint64_t prev_enter_ = 0;
  std::size_t nevents_ = 0;
};

// Decodes one block's payload into `out` (appended, seq numbered from
// `first_seq`). Returns nullptr, or why the payload is malformed. `context`
// is scratch space reused across blocks.
inline const char* decode_block(const unsigned char* p, std::size_t n, std::uint32_t nevents,
                                std::uint64_t first_seq, std::vector<Event>& out, ContextTable& context) {
  const unsigned char* end = p + n;
  auto varint = [&](std::uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 70 && p < end; shift += 7) {
      unsigned char b = *p++;
      v |= std::uint64_t{static_cast<unsigned char>(b & 0x7f)} << shift;
      if ((b & 0x80) == 0) return shift < 63 || (b & 0x7f) <= 1;
    }
    return false;
  };
  context.new_block();
  std::uint64_t prev_enter = 0;
  for (std::uint32_t k = 0; k < nevents; ++k) {
    if (p >= end) return "payload ends before its last record";
    Event e;
    std::memset(&e, 0, sizeof e);
    e.op_class = *p++;
    std::uint64_t site = 0, mask = 0, enter = 0, exit = 0;
    if (!varint(site) || site > 0xFFFFFFFFu) return "bad call-site number";
    e.callsite = static_cast<std::uint32_t>(site);
    if (!varint(mask) || (mask >> kFieldCount) != 0) return "bad field mask";
    if (!varint(enter) || !varint(exit)) return "bad timestamp";
    Fields& ctx = context.find(context_key(e));
    for (int i = 0; i < kFieldCount; ++i) {
      if ((mask >> i) & 1) {
        std::uint64_t d = 0;
        if (!varint(d)) return "bad field value";
        ctx.v[i] += unzigzag(d);
      }
      set_field(e, i, ctx.v[i]);
    }
    // The writer widened each field from its stored width: keep the context
    // equal to what it remembered, whatever a damaged payload says.
    get_fields(e, ctx);
    e.seq = first_seq + k;
    e.t_enter_ns = prev_enter + unzigzag(enter);
    e.t_exit_ns = e.t_enter_ns + unzigzag(exit);
    prev_enter = e.t_enter_ns;
    out.push_back(e);
  }
  if (p != end) return "bytes left after the last record";
  return nullptr;
}

}  // namespace scalefuzz::trace::packed
