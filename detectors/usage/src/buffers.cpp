// Buffer extent and C-type checks (issue 21, check 6): the memory a call
// reads or writes — count elements of the datatype from the buffer address,
// MPI-4.0 §3.2.2 (send buffer), §3.2.4 (the receive buffer is count
// consecutive elements, whatever the message's length), §6.1 (collectives) —
// must lie inside the memory object that holds the buffer, and the basic
// types of the datatype must be those of the variable's C type (§3.3.1: the
// type of each variable in the buffer must match the type in the datatype).
// The objects come from outside (an ObjectResolver: heap blocks of the
// allocator log, globals and stack variables from the debug information).
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "comms.hpp"
#include "scalefuzz/detectors/usage.hpp"
#include "scalefuzz/trace/ops.hpp"

namespace scalefuzz::detectors::usage {

namespace {

namespace ops = trace::ops;
using trace::OpClass;

// One buffer of a call: where, how many elements of which type, and whether
// the call writes it.
struct Use {
  std::uint64_t address = 0;
  std::uint32_t type = trace::kTypeNone;
  std::int64_t count = 0;
  bool receive = false;
};

// The buffers of one record. Vector variants (counts per rank) are not
// recorded per rank, so only their fixed sides are checked. `comm_size` 0:
// unknown (an intercommunicator's remote group), per-rank blocks unchecked.
std::vector<Use> uses(const trace::Event& e, int rank, std::int64_t comm_size) {
  std::vector<Use> out;
  const bool in_place = (e.flags & trace::kFlagInPlace) != 0;
  switch (op_class(e)) {
    case OpClass::Send: case OpClass::Isend: case OpClass::SendInit: case OpClass::Sendrecv:
      out.push_back({e.buffer, e.dtype, e.scount_arg, false});
      break;
    case OpClass::Recv: case OpClass::Irecv: case OpClass::RecvInit:
      if (e.op == ops::Sendrecv_replace) break;  // one buffer, both directions: the send record covers it
      out.push_back({e.buffer, e.dtype, e.scount_arg, true});
      break;
    case OpClass::Rma:  // one-sided origin buffer (format 4): a Get's is written, the others' read
      if (e.buffer != 0 && e.dtype != trace::kTypeNone)
        out.push_back({e.buffer, e.dtype, e.scount_arg, e.op == ops::Get || e.op == ops::Rget});
      break;
    case OpClass::Collective: case OpClass::Icollective: {
      if (e.flags & trace::kFlagChild) break;
      const bool root = e.root == rank;
      switch (e.op) {
        case ops::Bcast: case ops::Ibcast:
          out.push_back({e.buffer, e.dtype, e.scount_arg, !root});
          break;
        case ops::Allreduce: case ops::Iallreduce: case ops::Scan: case ops::Iscan: case ops::Exscan:
        case ops::Iexscan:
          if (!in_place) out.push_back({e.buffer, e.dtype, e.scount_arg, false});
          out.push_back({e.rbuffer, e.dtype, e.scount_arg, true});
          break;
        case ops::Reduce: case ops::Ireduce:
          if (!in_place) out.push_back({e.buffer, e.dtype, e.scount_arg, false});
          if (root) out.push_back({e.rbuffer, e.dtype, e.scount_arg, true});
          break;
        case ops::Gather: case ops::Igather:
          if (!in_place) out.push_back({e.buffer, e.dtype, e.scount_arg, false});
          if (root) out.push_back({e.rbuffer, e.rdtype, e.rcount_arg * comm_size, true});
          break;
        case ops::Scatter: case ops::Iscatter:
          if (root) out.push_back({e.buffer, e.dtype, e.scount_arg * comm_size, false});
          if (!in_place) out.push_back({e.rbuffer, e.rdtype, e.rcount_arg, true});
          break;
        case ops::Allgather: case ops::Iallgather:
          if (!in_place) out.push_back({e.buffer, e.dtype, e.scount_arg, false});
          out.push_back({e.rbuffer, e.rdtype, e.rcount_arg * comm_size, true});
          break;
        case ops::Alltoall: case ops::Ialltoall:
          if (!in_place) out.push_back({e.buffer, e.dtype, e.scount_arg * comm_size, false});
          out.push_back({e.rbuffer, e.rdtype, e.rcount_arg * comm_size, true});
          break;
        default:
          break;
      }
      break;
    }
    default:
      break;
  }
  out.erase(std::remove_if(out.begin(), out.end(),
                           [](const Use& u) {
                             return u.address == 0 || u.count <= 0 || u.type == trace::kTypeNone ||
                                    u.type == trace::kTypeNull;
                           }),
            out.end());
  return out;
}

// The basic C type a predefined MPI datatype describes (MPI-4.0 §3.2.2,
// Table 3.2), by the name MPI_Type_get_name gives it; nullopt: not judged.
struct Basic {
  CType::Class cls;
  std::int64_t size;
};
std::optional<Basic> basic_of(const std::string& name) {
  // The character types are absent on purpose: C lets any object be read
  // and written as chars, and programs move raw bytes of other types as
  // MPI_CHAR like MPI_BYTE (MPICH's own tests do).
  static const std::map<std::string, Basic> table = {
      {"MPI_WCHAR", {CType::Class::Signed, 4}},
      {"MPI_SHORT", {CType::Class::Signed, 2}},       {"MPI_UNSIGNED_SHORT", {CType::Class::Unsigned, 2}},
      {"MPI_INT", {CType::Class::Signed, 4}},         {"MPI_UNSIGNED", {CType::Class::Unsigned, 4}},
      {"MPI_LONG", {CType::Class::Signed, 8}},        {"MPI_UNSIGNED_LONG", {CType::Class::Unsigned, 8}},
      {"MPI_LONG_LONG_INT", {CType::Class::Signed, 8}}, {"MPI_LONG_LONG", {CType::Class::Signed, 8}},
      {"MPI_UNSIGNED_LONG_LONG", {CType::Class::Unsigned, 8}},
      {"MPI_FLOAT", {CType::Class::Float, 4}},        {"MPI_DOUBLE", {CType::Class::Float, 8}},
      {"MPI_LONG_DOUBLE", {CType::Class::Float, 16}}, {"MPI_C_BOOL", {CType::Class::Bool, 1}},
      {"MPI_INT8_T", {CType::Class::Signed, 1}},      {"MPI_INT16_T", {CType::Class::Signed, 2}},
      {"MPI_INT32_T", {CType::Class::Signed, 4}},     {"MPI_INT64_T", {CType::Class::Signed, 8}},
      {"MPI_UINT8_T", {CType::Class::Unsigned, 1}},   {"MPI_UINT16_T", {CType::Class::Unsigned, 2}},
      {"MPI_UINT32_T", {CType::Class::Unsigned, 4}},  {"MPI_UINT64_T", {CType::Class::Unsigned, 8}},
      {"MPI_AINT", {CType::Class::Signed, 8}},        {"MPI_OFFSET", {CType::Class::Signed, 8}},
      {"MPI_COUNT", {CType::Class::Signed, 8}},
  };
  auto it = table.find(name);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

// A float never fits an integer, and widths must agree: those are errors.
// Signedness must agree too (MPI_INT is int, MPI_UNSIGNED unsigned int), but
// a value in range reads the same either way: a warning. char arrays are
// the generic byte storage of C, and structs, pointers and unknown types are
// not judged.
bool judged(const CType& c) {
  return c.cls == CType::Class::Signed || c.cls == CType::Class::Unsigned || c.cls == CType::Class::Float ||
         c.cls == CType::Class::Bool;
}
bool fits(const Basic& b, const CType& c) {
  if (b.size != c.size) return false;
  const bool bf = b.cls == CType::Class::Float, cf = c.cls == CType::Class::Float;
  return bf == cf;
}
bool same_signedness(const Basic& b, const CType& c) {
  return (b.cls == CType::Class::Unsigned) == (c.cls == CType::Class::Unsigned);
}

bool character_type(const std::string& name) {
  return name == "MPI_CHAR" || name == "MPI_SIGNED_CHAR" || name == "MPI_UNSIGNED_CHAR";
}

// The record that created datatype `key` on this rank (MPI_Type_create_struct
// ...), or nullopt.
std::optional<std::size_t> creation_of(const trace::RankTrace& rt, std::uint32_t key) {
  for (std::size_t i = 0; i < rt.events.size(); ++i)
    if (op_class(rt.events[i]) == OpClass::HandleNew && rt.events[i].dtype == key) return i;
  return std::nullopt;
}

// The first entry of a derived datatype's type map that does not land on a
// member of the struct the buffer holds with a fitting basic type (checked
// for the first few elements, so an extent other than sizeof(struct) shows):
// "MPI_DOUBLE at byte 5 of element 0 falls inside member 'c' (char, ...)".
// Second: true when only the signedness differs.
std::optional<std::pair<std::string, bool>> struct_misfit(const trace::RankTrace& rt, const trace::TypeEntry& t,
                                                          std::int64_t count, std::uint64_t offset,
                                                          const MemoryObject& obj) {
  const CType& s = obj.element;
  constexpr std::int64_t kElements = 4;
  std::optional<std::pair<std::string, bool>> warning;
  for (std::int64_t k = 0; k < std::min(count, kElements); ++k)
    for (const auto& [prim, disp] : t.map) {
      const trace::TypeEntry* p = trace::find_type(rt, prim);
      if (p == nullptr) return std::nullopt;
      const std::int64_t pos = static_cast<std::int64_t>(offset) + k * t.extent + disp;
      if (pos < 0 || pos >= static_cast<std::int64_t>(obj.size)) continue;  // outside: the extent check's business
      const std::int64_t at = pos % s.size;
      const std::int64_t element = pos / s.size;
      auto where = [&] {
        return p->name + " at byte " + std::to_string(at) + " of " + s.name + " (element " + std::to_string(element) +
               ", datatype element " + std::to_string(k) + ")";
      };
      auto m = std::find_if(s.members.begin(), s.members.end(), [&](const CType::Member& m) {
        return at >= m.offset && at < m.offset + m.size;
      });
      if (m == s.members.end()) return std::make_pair(where() + " lands in padding, on no member", false);
      if (p->name == "MPI_BYTE" || p->name == "MPI_PACKED") continue;  // raw bytes fit anything
      const std::string member = "member '" + m->name + "' (" + std::to_string(m->size) + " bytes at byte " +
                                 std::to_string(m->offset) + ")";
      if (m->offset != at) return std::make_pair(where() + " starts inside " + member, false);
      if (character_type(p->name)) {
        if (m->size != 1) return std::make_pair(where() + " is a character type on " + member, false);
        continue;
      }
      auto b = basic_of(p->name);
      if (!b || m->cls == CType::Class::Pointer || m->cls == CType::Class::Other) continue;
      if (m->cls == CType::Class::Char || !fits(*b, CType{m->cls, m->size, {}, {}}))
        return std::make_pair(where() + " (" + std::to_string(b->size) + " bytes) does not fit " + member, false);
      if (!same_signedness(*b, CType{m->cls, m->size, {}, {}}) && !warning)
        warning = std::make_pair(where() + " has the other signedness than " + member, true);
    }
  return warning;
}

// A receive into a datatype whose type map names some bytes twice: what
// lands there is undefined, and the standard makes it erroneous (MPI-4.0
// §5.1: "the use of such a datatype in a receive operation is erroneous").
void check_receive_overlap(const trace::RankTrace& rt, std::size_t i, const Use& u, const trace::TypeEntry& t,
                           std::set<std::pair<std::uint32_t, std::string>>& reported, std::vector<Issue>& out) {
  if (t.predefined || !t.map_known || t.map.size() < 2) return;
  std::vector<std::tuple<std::int64_t, std::int64_t, std::string>> spans;  // (begin, end, type)
  for (const auto& [prim, disp] : t.map) {
    const trace::TypeEntry* p = trace::find_type(rt, prim);
    if (p == nullptr || p->size <= 0) return;
    spans.emplace_back(disp, disp + p->size, p->name);
  }
  std::sort(spans.begin(), spans.end());
  for (std::size_t k = 1; k < spans.size(); ++k) {
    const auto& [b0, e0, n0] = spans[k - 1];
    const auto& [b1, e1, n1] = spans[k];
    if (b1 >= e0) continue;
    const trace::Event& e = rt.events[i];
    if (!reported.insert({e.callsite, "invalid-argument"}).second) return;
    Issue is;
    is.kind = "invalid-argument";
    is.section = "MPI-4.0 §5.1 (a datatype with overlapping entries must not be used in a receive)";
    is.rule = "the type map of a receive buffer's datatype must not name any byte twice";
    is.message = std::string(trace::op_name(e.op)) + " receive buffer on rank " + std::to_string(rt.rank) +
                 ": datatype " + describe_type(rt, u.type, u.count) + " has " + n0 + " at bytes [" + std::to_string(b0) +
                 ", " + std::to_string(e0) + ") and " + n1 + " at [" + std::to_string(b1) + ", " + std::to_string(e1) +
                 ") of one element";
    is.sides.push_back({rt.rank, i, "call"});
    if (auto made = creation_of(rt, u.type)) is.sides.push_back({rt.rank, *made, "datatype created"});
    out.push_back(std::move(is));
    return;
  }
}

std::string kind_text(MemoryObject::Kind k) {
  return k == MemoryObject::Kind::Heap ? "heap block" : k == MemoryObject::Kind::Global ? "global" : "local variable";
}

}  // namespace

void check_buffers(const trace::RunTrace& run, const ObjectResolver& resolve, std::vector<Issue>& out) {
  if (!resolve) return;
  const Comms comms = comms_of(run);
  for (const auto& rt : run.ranks) {
    if (rt.rank < 0) continue;
    std::set<std::pair<std::uint32_t, std::string>> reported;  // (site, kind): one finding per call site
    for (std::size_t i = 0; i < rt.events.size(); ++i) {
      const trace::Event& e = rt.events[i];
      if (e.error != 0) continue;  // MPI rejected the call: that error is the finding
      auto cs = comms.members.find(e.comm);
      const std::int64_t comm_size =
          cs != comms.members.end() && comms.inter.count(e.comm) == 0 ? static_cast<std::int64_t>(cs->second.size()) : 0;
      for (const Use& u : uses(e, rt.rank, comm_size)) {
        const trace::TypeEntry* t = trace::find_type(rt, u.type);
        if (t == nullptr) continue;
        if (u.receive) check_receive_overlap(rt, i, u, *t, reported, out);
        std::optional<MemoryObject> obj = resolve(rt.rank, i, u.address);
        if (!obj || u.address < obj->begin) continue;
        // A heap block of unknown size typed by the caller's pointers: no
        // extent check; a struct only with a datatype written for it (its
        // extent is sizeof the struct), taken as count such structs.
        const bool sized = obj->size != 0;
        if (!sized) {
          if (obj->element.cls == CType::Class::Struct && t->extent != obj->element.size) continue;
          obj->size = static_cast<std::uint64_t>(u.count) * static_cast<std::uint64_t>(std::max<std::int64_t>(t->extent, 1));
        }
        const std::string what = std::string(trace::op_name(e.op)) + (u.receive ? " receive buffer" : " send buffer");
        // Extent: only gap-free types starting at their address (predefined,
        // contiguous), whose count elements span exactly count x extent.
        if (sized && t->lb == 0 && t->size == t->extent && t->extent > 0) {
          const std::uint64_t span = static_cast<std::uint64_t>(u.count) * static_cast<std::uint64_t>(t->extent);
          const std::uint64_t room = obj->begin + obj->size - u.address;
          if (span > room && reported.insert({e.callsite, "buffer-overflow"}).second) {
            Issue is;
            is.kind = "buffer-overflow";
            is.section = u.receive ? "MPI-4.0 §3.2.4 (the receive buffer is count consecutive elements), §6.1"
                                   : "MPI-4.0 §3.2.2 (the send buffer is count consecutive elements), §6.1";
            is.rule = "count elements of the datatype from the buffer address must lie inside the memory object "
                      "holding the buffer";
            is.message = what + " on rank " + std::to_string(rt.rank) + ": " + describe_type(rt, u.type, u.count) +
                         " = " + std::to_string(span) + " bytes from " + (u.address == obj->begin ? "the start of " : "inside ") +
                         kind_text(obj->kind) + " '" + obj->name + "' (" + std::to_string(obj->size) +
                         " bytes" + (u.address == obj->begin ? "" : ", " + std::to_string(room) + " left") + ")" +
                         (obj->decl.empty() ? "" : ", declared at " + obj->decl);
            is.sides.push_back({rt.rank, i, "call"});
            out.push_back(std::move(is));
          }
        }
        // A derived datatype on a struct: its type map against the members.
        if (obj->element.cls == CType::Class::Struct && !obj->element.members.empty() && obj->element.size > 0 &&
            !t->predefined && t->map_known) {
          auto misfit = struct_misfit(rt, *t, u.count, u.address - obj->begin, *obj);
          if (misfit && reported.insert({e.callsite, "buffer-type-mismatch"}).second) {
            Issue is;
            is.kind = "buffer-type-mismatch";
            if (misfit->second) is.severity = Severity::Warning;
            is.section = "MPI-4.0 §5.1 (a datatype's type map: basic types at displacements), §3.3.1";
            is.rule = "each entry of the datatype's type map must be the basic type of the struct member at its "
                      "displacement";
            is.message = what + " on rank " + std::to_string(rt.rank) + ": datatype " + describe_type(rt, u.type, u.count) +
                         " on " + kind_text(obj->kind) + " '" + obj->name + "' of " + obj->element.name + " (" +
                         std::to_string(obj->element.size) + " bytes" +
                         (obj->typed_by.empty() ? "" : ", typed by the " + obj->typed_by) + "): " + misfit->first +
                         (obj->decl.empty() ? "" : "; object from " + obj->decl);
            is.sides.push_back({rt.rank, i, "call"});
            if (auto made = creation_of(rt, u.type)) is.sides.push_back({rt.rank, *made, "datatype created"});
            out.push_back(std::move(is));
          }
        }
        // A predefined datatype on a struct (`&this->member` in a member
        // function, `&s.field`): the member the buffer starts at is the
        // variable whose C type the datatype must fit.
        if (obj->element.cls == CType::Class::Struct && obj->element.size > 0 && t->predefined) {
          const auto at = static_cast<std::int64_t>((u.address - obj->begin) % static_cast<std::uint64_t>(obj->element.size));
          auto m = std::find_if(obj->element.members.begin(), obj->element.members.end(),
                                [&](const CType::Member& m) { return m.offset == at && !m.type.empty(); });
          if (m == obj->element.members.end()) continue;
          obj->name += "' member '" + m->name + "' of '" + obj->element.name;
          obj->element = CType{m->cls, m->size, m->type, {}};
        }
        // C type: every basic type of the datatype's signature against the
        // variable's element type.
        if (!judged(obj->element) || !t->signature_known) continue;
        for (const auto& r : t->runs) {
          const trace::TypeEntry* prim = trace::find_type(rt, r.first);
          if (prim == nullptr) break;
          auto b = basic_of(prim->name);
          if (!b) continue;
          const bool fit = fits(*b, obj->element);
          if (fit && same_signedness(*b, obj->element)) continue;
          if (reported.insert({e.callsite, "buffer-type-mismatch"}).second) {
            Issue is;
            is.kind = "buffer-type-mismatch";
            if (fit) is.severity = Severity::Warning;  // only the signedness differs
            is.section = "MPI-4.0 §3.3.1 (the types of the buffer's variables must match the datatype's basic types)";
            is.rule = "the datatype's basic types must be the C type of the variable the buffer points to";
            is.message = what + " on rank " + std::to_string(rt.rank) + ": " + prim->name + " (" +
                         std::to_string(b->size) + " bytes) on " + kind_text(obj->kind) + " '" + obj->name +
                         "' of C type " + obj->element.name + " (" + std::to_string(obj->element.size) + " bytes" +
                         (obj->typed_by.empty() ? "" : ", typed by the " + obj->typed_by) + ")" +
                         (obj->decl.empty() ? "" : ", declared at " + obj->decl);
            is.sides.push_back({rt.rank, i, "call"});
            out.push_back(std::move(is));
          }
          break;
        }
      }
    }
  }
}

}  // namespace scalefuzz::detectors::usage

namespace scalefuzz::detectors::usage {

namespace {
// The index of a rank's record with sequence number `seq` (events are in seq order).
std::optional<std::size_t> record_at(const trace::RankTrace& rt, std::uint64_t seq) {
  auto it = std::lower_bound(rt.events.begin(), rt.events.end(), seq,
                             [](const trace::Event& e, std::uint64_t s) { return e.seq < s; });
  if (it == rt.events.end() || it->seq != seq) return std::nullopt;
  return static_cast<std::size_t>(it - rt.events.begin());
}
}  // namespace

void check_modified_sends(const trace::RunTrace& run, const ModifiedSends& modified, std::vector<Issue>& out) {
  for (std::size_t r = 0; r < modified.size() && r < run.ranks.size(); ++r) {
    const auto& rt = run.ranks[r];
    if (rt.rank < 0) continue;
    auto index_of = [&](std::uint64_t seq) { return record_at(rt, seq); };
    std::set<std::uint32_t> reported;  // post call sites
    for (const auto& [post_seq, done_seq] : modified[r]) {
      auto post = index_of(post_seq);
      // One-sided operations' origin buffers are detectors/rma's.
      if (!post || rt.events[*post].op_class == static_cast<std::uint8_t>(trace::OpClass::Rma) ||
          !reported.insert(rt.events[*post].callsite).second)
        continue;
      const trace::Event& p = rt.events[*post];
      Issue is;
      is.kind = "buffer-modified";
      if (op_class(p) == OpClass::Icollective) {
        is.section = "MPI-4.0 §6.12 (the send buffers of a nonblocking collective must not be modified until it completes)";
        is.rule = "a nonblocking collective's send buffer must stay unchanged from the post until the request completes";
        is.message = std::string(trace::op_name(p.op)) + " on rank " + std::to_string(rt.rank) +
                     ": its send buffer changed before the collective completed";
      } else {
        is.section = "MPI-4.0 §3.7.2 (the send buffer must not be modified until the nonblocking send completes)";
        is.rule = "a nonblocking send's buffer must stay unchanged from the post until the request completes";
        // MPI_Startall's own record stands for all its sends (no single peer).
        is.message = std::string(trace::op_name(p.op)) + " on rank " + std::to_string(rt.rank) +
                     (p.peer >= 0 ? " to rank " + std::to_string(p.peer) + ": its buffer"
                                  : ": the buffer of a send it started") +
                     " changed before the request completed";
      }
      is.sides.push_back({rt.rank, *post, "send posted here"});
      if (auto done = index_of(done_seq)) {
        is.message += " in " + std::string(trace::op_name(rt.events[*done].op));
        is.sides.push_back({rt.rank, *done, "completed here"});
      }
      out.push_back(std::move(is));
    }
  }
}

}  // namespace scalefuzz::detectors::usage

namespace scalefuzz::detectors::usage {

namespace {
// Another receive into bytes of [lo, hi) on the same rank between `post` and
// `done` (a pending receive posted before, a blocking receive or collective
// in between): the buffer then legitimately (or by another error, reported
// as overlapping-buffers) holds bytes other than this message's.
bool receive_buffer_shared(const trace::RankTrace& rt, std::size_t post, std::size_t done, std::uint64_t lo,
                           std::uint64_t hi, std::uint64_t request) {
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> pending;  // request -> receive range
  auto overlaps = [&](std::uint64_t b, std::int64_t bytes) {
    return b != 0 && b < hi && b + static_cast<std::uint64_t>(std::max<std::int64_t>(bytes, 1)) > lo;
  };
  for (std::size_t k = 0; k <= done && k < rt.events.size(); ++k) {
    const trace::Event& e = rt.events[k];
    const OpClass c = op_class(e);
    const bool mine = e.request == request && e.request != 0;
    if ((c == OpClass::Irecv || (c == OpClass::Start && e.bytes >= 0)) && !mine && overlaps(e.buffer, e.bytes)) {
      if (k > post) return true;
      pending[e.request] = {e.buffer, e.buffer};
    }
    if (c == OpClass::RequestDone && !(e.flags & trace::kFlagTestFailed)) {
      if (k > post && pending.count(e.request) != 0) return true;  // pending across our post
      pending.erase(e.request);
    }
    if (k > post && k < done && ((c == OpClass::Recv && overlaps(e.buffer, e.bytes)) || overlaps(e.rbuffer, 1)))
      return true;
  }
  return !pending.empty();  // still pending at our completion
}
}  // namespace

void check_written_receives(const trace::RunTrace& run, const trace::Matching& matching,
                            const ModifiedSends& modified, std::vector<Issue>& out) {
  std::set<std::pair<int, std::uint32_t>> reported;  // (rank, site) of the receive
  for (const auto& m : matching.messages) {
    if (m.recv_done == m.recv_post) continue;  // blocking receive: no pending window
    const auto& rs = run.ranks[static_cast<std::size_t>(m.send.rank)];
    const auto& rr = run.ranks[static_cast<std::size_t>(m.recv_done.rank)];
    const trace::Event& s = rs.events[m.send.index];
    const trace::Event& d = rr.events[m.recv_done.index];
    const std::uint32_t sent = trace::payload_sum(s), held = trace::payload_sum(d);
    if (sent == 0 || held == 0 || sent == held || d.status_bytes != s.bytes || d.error != 0) continue;
    // A send whose own buffer changed before it completed is buffer-modified.
    if (static_cast<std::size_t>(m.send.rank) < modified.size()) {
      const auto& mods = modified[static_cast<std::size_t>(m.send.rank)];
      if (std::any_of(mods.begin(), mods.end(), [&](const auto& p) { return p.first == s.seq; })) continue;
    }
    const std::uint64_t lo = d.buffer, hi = d.buffer + static_cast<std::uint64_t>(d.status_bytes);
    if (receive_buffer_shared(rr, m.recv_post.index, m.recv_done.index, lo, hi, d.request)) continue;
    const trace::Event& p = rr.events[m.recv_post.index];
    if (!reported.insert({m.recv_done.rank, p.callsite}).second) continue;
    Issue is;
    is.kind = "receive-buffer-written";
    is.section = "MPI-4.0 §3.7.2 (the receive buffer must not be accessed until the nonblocking receive completes)";
    is.rule = "a pending receive's buffer must not be written until the request completes";
    is.message = std::string(trace::op_name(p.op)) + " on rank " + std::to_string(rr.rank) + " from rank " +
                 std::to_string(m.send.rank) + ": at " + trace::op_name(d.op) +
                 " its buffer held other bytes than the " + std::to_string(s.bytes) +
                 " sent, so it was written after the message arrived and before the request completed";
    is.sides = {{rr.rank, m.recv_post.index, "receive posted here"},
                {rr.rank, m.recv_done.index, "completed here"},
                {m.send.rank, m.send.index, "send"}};
    out.push_back(std::move(is));
  }
}

namespace {
// The request a post record (Irecv, Start, or one of Startall's started
// children) posted whose buffer holds `address`; 0: none.
std::uint64_t posted_request(const trace::RankTrace& rt, std::size_t post, std::uint64_t address) {
  auto holds = [&](const trace::Event& e) {
    return e.request != 0 && address >= e.buffer && address < e.buffer + static_cast<std::uint64_t>(std::max<std::int64_t>(e.bytes, 1));
  };
  if (holds(rt.events[post])) return rt.events[post].request;
  // A nonblocking collective's record names its send buffer; the guard
  // watched its receive buffer.
  if (op_class(rt.events[post]) == OpClass::Icollective) return rt.events[post].request;
  for (std::size_t k = post + 1; k < rt.events.size() && (rt.events[k].flags & trace::kFlagChild) != 0; ++k)
    if (op_class(rt.events[k]) == OpClass::Start && holds(rt.events[k])) return rt.events[k].request;
  return 0;
}
}  // namespace

void check_accessed_receives(const trace::RunTrace& run, const ReceiveAccesses& accessed, std::vector<Issue>& out) {
  for (std::size_t r = 0; r < accessed.size() && r < run.ranks.size(); ++r) {
    const auto& rt = run.ranks[r];
    if (rt.rank < 0) continue;
    std::set<std::pair<std::uint32_t, std::uint64_t>> reported;  // (receive call site, access pc)
    for (const ReceiveAccess& a : accessed[r]) {
      const auto post = record_at(rt, a.post_seq);
      if (!post || a.frames.empty() || rt.events[*post].op_class == static_cast<std::uint8_t>(trace::OpClass::Rma) ||
          !reported.insert({rt.events[*post].callsite, a.frames[0]}).second)
        continue;  // one-sided operations' buffers are detectors/rma's
      const trace::Event& p = rt.events[*post];
      const std::uint64_t request = posted_request(rt, *post, a.address);
      Issue is;
      is.kind = "receive-buffer-accessed";
      is.section = "MPI-4.0 §3.7.2, §3.7.3 (the receive buffer must not be accessed until the receive completes)";
      is.rule = "a pending receive's buffer must not be read or written until a Wait or Test completes the request";
      const bool coll = op_class(p) == OpClass::Icollective;
      if (coll) is.section = "MPI-4.0 §6.12 (the receive buffers of a nonblocking collective must not be accessed until it completes)";
      is.message = std::string(trace::op_name(p.op)) + " on rank " + std::to_string(rt.rank) +
                   (p.peer >= 0 ? " from rank " + std::to_string(p.peer) : std::string()) + ": the application " +
                   (a.write ? "wrote" : "read") + (coll ? " its receive buffer while the collective was pending"
                                                        : " its buffer while the receive was pending");
      is.sides.push_back({rt.rank, *post, "receive posted here"});
      for (std::size_t k = *post + 1; request != 0 && k < rt.events.size(); ++k) {
        const trace::Event& e = rt.events[k];
        if (op_class(e) == OpClass::RequestDone && e.request == request && !(e.flags & trace::kFlagTestFailed)) {
          std::size_t parent = k;
          while (parent > 0 && (rt.events[parent].flags & trace::kFlagChild) != 0) --parent;
          is.message += "; completed later by " + std::string(trace::op_name(rt.events[parent].op));
          is.sides.push_back({rt.rank, parent, "completed here"});
          break;
        }
      }
      is.stack_rank = rt.rank;
      is.stack = a.frames;
      out.push_back(std::move(is));
    }
  }
}

void check_written_collectives(const trace::RunTrace& run, const ModifiedSends& written, std::vector<Issue>& out) {
  for (std::size_t r = 0; r < written.size() && r < run.ranks.size(); ++r) {
    const auto& rt = run.ranks[r];
    if (rt.rank < 0) continue;
    std::set<std::uint32_t> reported;  // post call sites
    for (const auto& [post_seq, done_seq] : written[r]) {
      const auto post = record_at(rt, post_seq);
      if (!post || !reported.insert(rt.events[*post].callsite).second) continue;
      const trace::Event& p = rt.events[*post];
      Issue is;
      is.kind = "receive-buffer-written";
      is.section = "MPI-4.0 §6.12 (the receive buffers of a nonblocking collective must not be accessed until it completes)";
      is.rule = "a pending nonblocking collective's receive buffer must not be written until the request completes";
      is.message = std::string(trace::op_name(p.op)) + " on rank " + std::to_string(rt.rank) +
                   ": the application wrote its receive buffer while the collective was pending (the completion "
                   "then overwrote it)";
      is.sides.push_back({rt.rank, *post, "collective posted here"});
      if (auto done = record_at(rt, done_seq)) {
        std::size_t parent = *done;
        while (parent > 0 && (rt.events[parent].flags & trace::kFlagChild) != 0) --parent;
        is.message += "; completed by " + std::string(trace::op_name(rt.events[parent].op));
        is.sides.push_back({rt.rank, parent, "completed here"});
      }
      out.push_back(std::move(is));
    }
  }
}

void check_collective_concurrency(const trace::RunTrace& run, std::vector<Issue>& out) {
  const Comms comms = comms_of(run);
  struct Range {
    std::uint64_t lo, hi;
    bool writes;
    bool collective;
    std::size_t post;
    std::uint64_t request;
  };
  for (const auto& rt : run.ranks) {
    if (rt.rank < 0) continue;
    std::vector<Range> pending;
    std::set<std::uint32_t> reported;  // call sites of the later call
    for (std::size_t i = 0; i < rt.events.size(); ++i) {
      const trace::Event& e = rt.events[i];
      const OpClass c = op_class(e);
      if ((c == OpClass::RequestDone && !(e.flags & trace::kFlagTestFailed)) ||
          (c == OpClass::RequestFree && e.op != ops::Cancel)) {
        pending.erase(std::remove_if(pending.begin(), pending.end(),
                                     [&](const Range& r) { return r.request == e.request; }),
                      pending.end());
        continue;
      }
      if ((e.flags & trace::kFlagChild) != 0 || e.error != 0) continue;
      const bool collective = c == OpClass::Collective || c == OpClass::Icollective;
      const bool posts = (c == OpClass::Isend || c == OpClass::Irecv || c == OpClass::Icollective) && e.request != 0;
      if (!collective && !posts && c != OpClass::Sendrecv &&
          (pending.empty() || (c != OpClass::Send && c != OpClass::Recv)))
        continue;
      auto cs = comms.members.find(e.comm);
      const std::int64_t comm_size =
          cs != comms.members.end() && comms.inter.count(e.comm) == 0 ? static_cast<std::int64_t>(cs->second.size()) : 0;
      std::vector<Range> mine;
      for (const Use& u : uses(e, rt.rank, comm_size)) {
        const trace::TypeEntry* t = trace::find_type(rt, u.type);
        if (t == nullptr || t->lb != 0 || t->extent <= 0) continue;
        mine.push_back({u.address, u.address + static_cast<std::uint64_t>(u.count) * static_cast<std::uint64_t>(t->extent),
                        u.receive, collective, i, e.request});
      }
      for (const Range& m : mine) {
        const Range* hit = nullptr;
        for (const Range& q : pending)
          // Two pending point-to-point requests: check_arguments' pair.
          if ((q.collective || m.collective) && (q.writes || m.writes) && m.lo < q.hi && q.lo < m.hi) {
            hit = &q;
            break;
          }
        if (hit == nullptr || !reported.insert(e.callsite).second) continue;
        const trace::Event& q = rt.events[hit->post];
        Issue is;
        is.kind = "overlapping-buffers";
        // Two receives into exactly the same buffer: the scratch idiom (see check_arguments).
        if (m.writes && hit->writes && m.lo == hit->lo && m.hi == hit->hi) is.severity = Severity::Info;
        is.section = hit->collective ? "MPI-4.0 §6.12 (buffers of a pending nonblocking collective must not be "
                                       "accessed or modified until it completes)"
                                     : "MPI-4.0 §3.7.2 (the buffer of a pending request must not be accessed)";
        is.rule = "no call may write a buffer of a pending nonblocking operation, nor read one the operation writes, "
                  "before the operation completes";
        is.message = std::string(trace::op_name(e.op)) + " on rank " + std::to_string(rt.rank) + " " +
                     (m.writes ? "writes" : "reads") + " a buffer that overlaps the " +
                     (hit->writes ? "receive" : "send") + " buffer of the pending " + trace::op_name(q.op) +
                     " (not completed yet)";
        is.sides = {{rt.rank, i, "this call"}, {rt.rank, hit->post, "pending request"}};
        out.push_back(std::move(is));
        break;
      }
      if (posts)
        for (const Range& m : mine) pending.push_back(m);
      // MPI_Sendrecv whose receive buffer overlaps its send buffer without
      // being the same (that is aliased-buffers in check_arguments) (§3.10).
      if (c == OpClass::Sendrecv && e.op == ops::Sendrecv && !mine.empty() && i + 1 < rt.events.size() &&
          op_class(rt.events[i + 1]) == OpClass::Recv && (rt.events[i + 1].flags & trace::kFlagChild) != 0) {
        const trace::Event& r = rt.events[i + 1];
        const trace::TypeEntry* t = trace::find_type(rt, r.dtype);
        if (t == nullptr || t->lb != 0 || t->extent <= 0 || r.buffer == 0 || r.scount_arg <= 0 || r.buffer == e.buffer)
          continue;
        const std::uint64_t lo = r.buffer, hi = r.buffer + static_cast<std::uint64_t>(r.scount_arg) * static_cast<std::uint64_t>(t->extent);
        if (!(lo < mine[0].hi && mine[0].lo < hi) || !reported.insert(e.callsite).second) continue;
        Issue is;
        is.kind = "aliased-buffers";
        is.section = "MPI-4.0 §3.10 (the send and receive buffers of MPI_SENDRECV must be disjoint)";
        is.rule = "the send and receive buffers of one call must not overlap";
        is.message = "MPI_Sendrecv on rank " + std::to_string(rt.rank) + ": the receive buffer (" +
                     describe_type(rt, r.dtype, r.scount_arg) + ") overlaps the send buffer (" +
                     describe_type(rt, e.dtype, e.scount_arg) + ") by " +
                     std::to_string(std::min(hi, mine[0].hi) - std::max(lo, mine[0].lo)) + " bytes";
        is.sides.push_back({rt.rank, i, "call"});
        out.push_back(std::move(is));
      }
    }
  }
}

}  // namespace scalefuzz::detectors::usage
