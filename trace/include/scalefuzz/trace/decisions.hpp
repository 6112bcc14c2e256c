// Decision log (format 4): ranks/N.decisions, the nondeterministic outcomes
// of one rank's MPI calls, so that a replay can force them (issue 29).
//
// What is logged (the only message nondeterminism of a single-threaded MPI
// program without timing-dependent branches; ReMPI records the same things:
// PRUNERS/ReMPI src/rempi_encoder_basic.cpp encodes per matching function the
// run of unmatched tests (event count), the flag, the matched rank, with_next
// for Testsome and the index):
//   Match  the n-th wildcard receive or probe posted on this rank (MPI_ANY_SOURCE
//          or MPI_ANY_TAG; Recv, Irecv, Recv_init+Start, Sendrecv, Probe,
//          Iprobe, Mprobe, Improbe) matched a message from `source` (world
//          rank) with `tag` (tag only when the call's tag was MPI_ANY_TAG).
//          Keyed by post order (`ordinal`), so a replay posts the n-th wildcard
//          receive with the recorded source: MPI's non-overtaking rule then
//          makes it match the same message. Logged when the match is known
//          (a blocking call's return, a nonblocking request's completion).
//   Poll   a Test/Testall/Iprobe/Improbe that succeeded after `failures`
//          unsuccessful polls (any of the family) since the previous poll
//          decision: polling as run lengths.
//   Index  Waitany (failures 0) or a successful Testany: the index.
//   Some   Waitsome or a successful Testsome: the indices.
//   Fails  unsuccessful polls after the last success, written at MPI_Finalize.
//   End    the rank called MPI_Finalize.
//   Free   "then run free": the log ends here on purpose (written by tools that
//          build forced schedules, never by a recording); a replay stops
//          forcing without reporting a divergence.
// Every entry carries `call`: the number of the intercepted call that made it
// (1-based, the live state's `calls` counter: every call counts, folded polls
// too), which is how a replay notices a divergence.
//
// File: FileHeader (kind Decisions, record_size 1) + DecisionPreamble + a byte
// stream of entries. Each entry starts with a nonzero kind byte, stored last
// by the writer (the rest of the entry first): after SIGKILL the stream is
// valid up to the first zero kind byte. Varints are LEB128 (7 bits a byte).
//   0x01..0x7F           Match: source = byte - 1, ordinal = previous + 1, no tag; varint call delta
//   0x80 Match           varint zigzag(ordinal - (previous + 1)), varint source + 1 (0 = no message),
//                        varint tag + 1 (0 = not recorded), varint call delta
//   0x81 Poll            varint failures, varint call delta
//   0x82 Index           varint failures, varint index + 1 (0 = MPI_UNDEFINED), varint call delta
//   0x83 Some            varint failures, varint n, n x varint index, varint call delta
//   0x84 Poll            failures 0: varint call delta
//   0x85 Fails           varint failures, varint call delta
//   0x86 End             varint call delta
//   0x87 Free            varint call delta
//   0x88..0xFF           Match: source = byte - 0x88, ordinal = previous + 1, no tag, and the call
//                        delta of the previous entry (no varint): one byte for the matches of a loop
//                        (a wildcard receive every k calls). Added within format 4: logs without
//                        these bytes read as before.
// Header-only and allocation-free on the writer side: the injector encodes
// with it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace scalefuzz::trace {

struct DecisionPreamble {
  std::uint32_t build_id_len;   // bytes of build_id used (0: the executable has no GNU build id)
  std::uint32_t flags;          // kDecisionsWritten*
  std::uint8_t build_id[32];    // GNU build id (NT_GNU_BUILD_ID) of the rank's executable
  std::uint8_t reserved[24];
};
static_assert(sizeof(DecisionPreamble) == 64);
inline constexpr std::uint32_t kDecisionsWrittenByTool = 1u << 0;  // not recorded: built by write_decision_log

enum class DecisionKind : std::uint8_t { Match = 1, Poll, Index, Some, Fails, End, Free };

namespace decision_code {
inline constexpr std::uint8_t kMatchLong = 0x80;
inline constexpr std::uint8_t kPoll = 0x81;
inline constexpr std::uint8_t kIndex = 0x82;
inline constexpr std::uint8_t kSome = 0x83;
inline constexpr std::uint8_t kPollFirst = 0x84;
inline constexpr std::uint8_t kFails = 0x85;
inline constexpr std::uint8_t kEnd = 0x86;
inline constexpr std::uint8_t kFree = 0x87;
inline constexpr std::int32_t kShortSourceLimit = 127;  // sources 0..126 fit the short Match byte
inline constexpr std::uint8_t kMatchRepeat = 0x88;       // 0x88 + source: a short Match at the previous call delta
inline constexpr std::int32_t kRepeatSourceLimit = 0x100 - kMatchRepeat;  // sources 0..119
}  // namespace decision_code

inline constexpr std::int32_t kNoDecisionTag = -1;  // Match.tag: the call named its tag
inline constexpr std::int32_t kNoMessage = -1;      // Match.source: completed without a message (cancelled)

// Varint helpers. put_varint returns the bytes written (at most 10).
inline std::size_t put_varint(std::uint8_t* out, std::uint64_t v) {
  std::size_t n = 0;
  while (v >= 0x80) {
    out[n++] = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  out[n++] = static_cast<std::uint8_t>(v);
  return n;
}
// Reads a varint from [p, end); false if it runs past end or is longer than 10 bytes.
inline bool get_varint(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& v) {
  v = 0;
  for (unsigned shift = 0; shift < 70; shift += 7) {
    if (p >= end) return false;
    const std::uint8_t b = *p++;
    v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) return true;
  }
  return false;
}
inline std::uint64_t zigzag(std::int64_t v) { return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63); }
inline std::int64_t unzigzag(std::uint64_t v) { return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1); }

// Encoder state (one per rank): the previous entry's call, call delta and Match ordinal.
struct DecisionCursor {
  std::uint64_t call = 0;
  std::uint64_t delta = 0;
  std::uint64_t ordinal = 0;
};

// Ends an entry: its call delta, and the cursor moved to `call`.
inline std::size_t put_call(std::uint8_t* out, DecisionCursor& cur, std::uint64_t call) {
  cur.delta = call - cur.call;
  cur.call = call;
  return put_varint(out, cur.delta);
}

// Encodes one Match entry into `out` (>= 40 bytes); returns its size.
inline std::size_t encode_match(std::uint8_t* out, DecisionCursor& cur, std::uint64_t call, std::uint64_t ordinal,
                                std::int32_t source, std::int32_t tag) {
  std::size_t n = 0;
  const bool next_untagged = ordinal == cur.ordinal + 1 && tag == kNoDecisionTag && source >= 0;
  if (next_untagged && source < decision_code::kRepeatSourceLimit && call - cur.call == cur.delta) {
    out[n++] = static_cast<std::uint8_t>(decision_code::kMatchRepeat + source);
    cur.call = call;
    cur.ordinal = ordinal;
    return n;
  }
  if (next_untagged && source < decision_code::kShortSourceLimit) {
    out[n++] = static_cast<std::uint8_t>(source + 1);
  } else {
    out[n++] = decision_code::kMatchLong;
    n += put_varint(out + n, zigzag(static_cast<std::int64_t>(ordinal - (cur.ordinal + 1))));
    n += put_varint(out + n, source < 0 ? 0 : static_cast<std::uint64_t>(source) + 1);
    n += put_varint(out + n, tag < 0 ? 0 : static_cast<std::uint64_t>(tag) + 1);
  }
  n += put_call(out + n, cur, call);
  cur.ordinal = ordinal;
  return n;
}

// Poll / Fails / End / Free entries (`code` one of decision_code::kPoll,
// kFails, kEnd, kFree; kPoll with 0 failures becomes kPollFirst).
inline std::size_t encode_simple(std::uint8_t* out, DecisionCursor& cur, std::uint8_t code, std::uint64_t call,
                                 std::uint64_t failures) {
  std::size_t n = 0;
  if (code == decision_code::kPoll && failures == 0) code = decision_code::kPollFirst;
  out[n++] = code;
  if (code == decision_code::kPoll || code == decision_code::kFails) n += put_varint(out + n, failures);
  n += put_call(out + n, cur, call);
  return n;
}

// Index entry (index < 0: MPI_UNDEFINED).
inline std::size_t encode_index(std::uint8_t* out, DecisionCursor& cur, std::uint64_t call, std::uint64_t failures,
                                std::int32_t index) {
  std::size_t n = 0;
  out[n++] = decision_code::kIndex;
  n += put_varint(out + n, failures);
  n += put_varint(out + n, index < 0 ? 0 : static_cast<std::uint64_t>(index) + 1);
  n += put_call(out + n, cur, call);
  return n;
}

// Some entry; `out` must hold 1 + 10 * (count + 3) bytes.
inline std::size_t encode_some(std::uint8_t* out, DecisionCursor& cur, std::uint64_t call, std::uint64_t failures,
                               const int* indices, int count) {
  std::size_t n = 0;
  out[n++] = decision_code::kSome;
  n += put_varint(out + n, failures);
  n += put_varint(out + n, count < 0 ? 0 : static_cast<std::uint64_t>(count));
  for (int i = 0; i < count; ++i) n += put_varint(out + n, indices[i] < 0 ? 0 : static_cast<std::uint64_t>(indices[i]));
  n += put_call(out + n, cur, call);
  return n;
}

// One decoded entry; a Some entry's indices are `nindices` varints at `indices`.
struct RawDecision {
  DecisionKind kind = DecisionKind::Match;
  std::uint64_t call = 0;
  std::uint64_t ordinal = 0;
  std::uint64_t failures = 0;
  std::int32_t source = kNoMessage;
  std::int32_t tag = kNoDecisionTag;
  std::int32_t index = -1;
  std::uint64_t nindices = 0;
  const std::uint8_t* indices = nullptr;
};
enum class DecodeStatus : std::uint8_t { Ok, Done, Cut, Unknown };

// Decodes the entry at `p` (advanced past it). Done: `p` is at the end or
// at a zero byte (the unwritten tail); Cut: the entry runs past `end`;
// Unknown: an unknown kind byte.
inline DecodeStatus decode_entry(const std::uint8_t*& p, const std::uint8_t* end, DecisionCursor& cur, RawDecision& d) {
  if (p >= end || *p == 0) return DecodeStatus::Done;
  const std::uint8_t* q = p;
  const std::uint8_t code = *q++;
  d = RawDecision{};
  std::uint64_t v = 0, delta = 0;
  bool ok = true;
  if (code >= decision_code::kMatchRepeat) {
    d.kind = DecisionKind::Match;
    d.source = code - decision_code::kMatchRepeat;
    d.ordinal = cur.ordinal + 1;
    d.call = cur.call + cur.delta;
    cur.call = d.call;
    cur.ordinal = d.ordinal;
    p = q;
    return DecodeStatus::Ok;
  }
  if (code < decision_code::kMatchLong) {
    d.kind = DecisionKind::Match;
    d.source = code - 1;
    d.ordinal = cur.ordinal + 1;
  } else {
    switch (code) {
      case decision_code::kMatchLong: {
        std::uint64_t src = 0, tag = 0;
        ok = get_varint(q, end, v) && get_varint(q, end, src) && get_varint(q, end, tag);
        d.kind = DecisionKind::Match;
        d.ordinal = cur.ordinal + 1 + static_cast<std::uint64_t>(unzigzag(v));
        d.source = src == 0 ? kNoMessage : static_cast<std::int32_t>(src - 1);
        d.tag = tag == 0 ? kNoDecisionTag : static_cast<std::int32_t>(tag - 1);
        break;
      }
      case decision_code::kPoll: d.kind = DecisionKind::Poll; ok = get_varint(q, end, d.failures); break;
      case decision_code::kPollFirst: d.kind = DecisionKind::Poll; break;
      case decision_code::kIndex:
        d.kind = DecisionKind::Index;
        ok = get_varint(q, end, d.failures) && get_varint(q, end, v);
        d.index = v == 0 ? -1 : static_cast<std::int32_t>(v - 1);
        break;
      case decision_code::kSome:
        d.kind = DecisionKind::Some;
        ok = get_varint(q, end, d.failures) && get_varint(q, end, d.nindices) &&
             d.nindices <= static_cast<std::uint64_t>(end - q);
        d.indices = q;
        for (std::uint64_t i = 0; ok && i < d.nindices; ++i) ok = get_varint(q, end, v);
        break;
      case decision_code::kFails: d.kind = DecisionKind::Fails; ok = get_varint(q, end, d.failures); break;
      case decision_code::kEnd: d.kind = DecisionKind::End; break;
      case decision_code::kFree: d.kind = DecisionKind::Free; break;
      default: return DecodeStatus::Unknown;
    }
  }
  if (!ok || !get_varint(q, end, delta)) return DecodeStatus::Cut;
  d.call = cur.call + delta;
  cur.call = d.call;
  cur.delta = delta;
  if (d.kind == DecisionKind::Match) cur.ordinal = d.ordinal;
  p = q;
  return DecodeStatus::Ok;
}

}  // namespace scalefuzz::trace
