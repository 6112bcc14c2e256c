#include "memory_objects.hpp"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "scalefuzz/trace/allocs.hpp"
#include "scalefuzz/trace/symbolize.hpp"

namespace scalefuzz::detectors::usage {

namespace {

namespace fs = std::filesystem;

// x86-64 DWARF register numbers (System V psABI, Figure 3.36).
constexpr unsigned kRegFp = 6;  // rbp
constexpr unsigned kRegSp = 7;  // rsp

// The application's own modules: system libraries (MPI, libc) and the
// injector hold no application variables.
bool application_module(const std::string& path) {
  for (const char* dir : {"/usr/", "/lib/", "/lib64/"})
    if (path.rfind(dir, 0) == 0) return false;
  return path.find("libscalefuzz") == std::string::npos;
}

std::string decl_of(Dwarf_Die* die) {
  const char* file = dwarf_decl_file(die);
  int line = 0;
  if (file == nullptr || dwarf_decl_line(die, &line) != 0) return {};
  std::string f = file;
  if (auto slash = f.rfind('/'); slash != std::string::npos) f = f.substr(slash + 1);
  return f + ":" + std::to_string(line);
}

// The name of a variable, also of a concrete instance whose name is on its
// abstract origin (inlined functions).
std::string name_of(Dwarf_Die* die) {
  Dwarf_Attribute attr;
  const char* name = dwarf_attr_integrate(die, DW_AT_name, &attr) != nullptr ? dwarf_formstring(&attr) : nullptr;
  return name != nullptr ? name : "?";
}

bool type_of(Dwarf_Die* die, Dwarf_Die* out) {
  Dwarf_Attribute attr;
  return dwarf_attr_integrate(die, DW_AT_type, &attr) != nullptr && dwarf_formref_die(&attr, out) != nullptr;
}

CType::Class class_of_base(Dwarf_Die* base) {
  Dwarf_Attribute attr;
  Dwarf_Word enc = 0;
  if (dwarf_attr(base, DW_AT_encoding, &attr) != nullptr) dwarf_formudata(&attr, &enc);
  switch (enc) {
    case DW_ATE_signed: return CType::Class::Signed;
    case DW_ATE_unsigned: return CType::Class::Unsigned;
    case DW_ATE_float: return CType::Class::Float;
    case DW_ATE_signed_char: case DW_ATE_unsigned_char: return CType::Class::Char;
    case DW_ATE_boolean: return CType::Class::Bool;
    default: return CType::Class::Other;
  }
}

constexpr std::size_t kMaxMembers = 256;

// Appends the scalar members of the (peeled) type `t` at `offset` (arrays
// and nested structs expanded); false when the layout is not plain
// (union, bit-field, too many members, unknown size).
bool flatten_members(Dwarf_Die* t, std::int64_t offset, const std::string& name, std::vector<CType::Member>& out,
                     int depth) {
  if (depth > 8 || out.size() > kMaxMembers) return false;
  Dwarf_Word bytes = 0;
  const int tag = dwarf_tag(t);
  if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type) {
    Dwarf_Die m;
    if (dwarf_child(t, &m) != 0) return true;
    do {
      if (dwarf_tag(&m) != DW_TAG_member) continue;
      Dwarf_Attribute attr;
      Dwarf_Word at = 0;
      if (dwarf_hasattr(&m, DW_AT_bit_size) || dwarf_attr(&m, DW_AT_data_member_location, &attr) == nullptr ||
          dwarf_formudata(&attr, &at) != 0)
        return false;
      Dwarf_Die mt, peeled;
      if (!type_of(&m, &mt) || dwarf_peel_type(&mt, &peeled) != 0) return false;
      const char* mname = dwarf_diename(&m);
      const std::string full = (name.empty() ? "" : name + ".") + (mname != nullptr ? mname : "?");
      if (!flatten_members(&peeled, offset + static_cast<std::int64_t>(at), full, out, depth + 1)) return false;
    } while (dwarf_siblingof(&m, &m) == 0);
    return true;
  }
  if (tag == DW_TAG_array_type) {
    Dwarf_Die et, peeled;
    Dwarf_Word ebytes = 0;
    if (dwarf_aggregate_size(t, &bytes) != 0 || !type_of(t, &et) || dwarf_peel_type(&et, &peeled) != 0 ||
        dwarf_aggregate_size(&peeled, &ebytes) != 0 || ebytes == 0)
      return false;
    for (Dwarf_Word i = 0; i < bytes / ebytes; ++i)
      if (!flatten_members(&peeled, offset + static_cast<std::int64_t>(i * ebytes),
                           name + "[" + std::to_string(i) + "]", out, depth + 1))
        return false;
    return true;
  }
  if (dwarf_aggregate_size(t, &bytes) != 0) return false;
  const char* type_name = dwarf_diename(t);
  CType::Member member{offset, CType::Class::Other, static_cast<std::int64_t>(bytes), name,
                       type_name != nullptr ? type_name : ""};
  if (tag == DW_TAG_base_type) member.cls = class_of_base(t);
  else if (tag == DW_TAG_pointer_type) member.cls = CType::Class::Pointer;
  else if (tag == DW_TAG_enumeration_type) member.cls = CType::Class::Signed;
  else if (tag == DW_TAG_union_type) return false;
  out.push_back(std::move(member));
  return true;
}

// The element C type of a variable of type `type` (arrays give their
// element type) and its total size.
bool describe(Dwarf_Die* type, CType& element, std::uint64_t& size) {
  Dwarf_Word bytes = 0;
  if (dwarf_aggregate_size(type, &bytes) != 0 || bytes == 0) return false;
  size = bytes;
  Dwarf_Die t;
  const char* alias = dwarf_tag(type) == DW_TAG_typedef ? dwarf_diename(type) : nullptr;  // typedef struct {..} cell_t
  if (dwarf_peel_type(type, &t) != 0) return false;
  if (dwarf_tag(&t) == DW_TAG_array_type) {
    Dwarf_Die elem;
    if (!type_of(&t, &elem)) return true;  // element unknown
    alias = dwarf_tag(&elem) == DW_TAG_typedef ? dwarf_diename(&elem) : nullptr;
    if (dwarf_peel_type(&elem, &t) != 0) return true;
  }
  const int tag = dwarf_tag(&t);
  const char* name = dwarf_diename(&t);
  element.name = name != nullptr ? name : alias != nullptr ? alias : "?";
  Dwarf_Word esize = 0;
  if (tag == DW_TAG_base_type) {
    Dwarf_Attribute attr;
    Dwarf_Word enc = 0;
    if (dwarf_attr(&t, DW_AT_encoding, &attr) != nullptr) dwarf_formudata(&attr, &enc);
    element.size = dwarf_aggregate_size(&t, &esize) == 0 ? static_cast<std::int64_t>(esize) : 0;
    switch (enc) {
      case DW_ATE_signed: element.cls = CType::Class::Signed; break;
      case DW_ATE_unsigned: element.cls = CType::Class::Unsigned; break;
      case DW_ATE_float: element.cls = CType::Class::Float; break;
      case DW_ATE_signed_char: case DW_ATE_unsigned_char: element.cls = CType::Class::Char; break;
      case DW_ATE_boolean: element.cls = CType::Class::Bool; break;
      default: element.cls = CType::Class::Other; break;
    }
  } else if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type || tag == DW_TAG_class_type) {
    element.cls = CType::Class::Struct;
    if (name != nullptr) element.name = std::string(tag == DW_TAG_union_type ? "union " : "struct ") + element.name;
    element.size = dwarf_aggregate_size(&t, &esize) == 0 ? static_cast<std::int64_t>(esize) : 0;
    if (tag != DW_TAG_union_type && !flatten_members(&t, 0, "", element.members, 0)) element.members.clear();
  } else if (tag == DW_TAG_pointer_type) {
    element.cls = CType::Class::Pointer;
    element.name = "pointer";
  } else {
    element.cls = CType::Class::Other;
  }
  return true;
}

// A single-operation location expression valid at `pc`.
bool single_op(Dwarf_Attribute* attr, Dwarf_Addr pc, Dwarf_Op& op) {
  Dwarf_Op* expr = nullptr;
  size_t len = 0;
  if (dwarf_getlocation_addr(attr, pc, &expr, &len, 1) != 1 || len != 1) return false;
  op = expr[0];
  return true;
}

struct Global {
  std::uint64_t begin = 0, size = 0;
  std::string name, decl;
  CType element;
};

// One application module's DWARF and CFI (offline, link-time addresses).
class Module {
 public:
  explicit Module(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) return;
    dbg_ = dwarf_begin(fd_, DWARF_C_READ);
    if (dbg_ == nullptr) return;
    if (Elf* elf = dwarf_getelf(dbg_)) eh_cfi_ = dwarf_getcfi_elf(elf);
    debug_cfi_ = dwarf_getcfi(dbg_);
  }
  ~Module() {
    if (dbg_ != nullptr) dwarf_end(dbg_);
    if (fd_ >= 0) ::close(fd_);
  }
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  bool usable() const { return dbg_ != nullptr; }

  // CFA of the frame whose return address into this module is `pc`, given
  // the stack and frame pointer at that return address.
  std::optional<std::uint64_t> cfa(Dwarf_Addr pc, std::uint64_t sp, std::uint64_t fp) const {
    for (Dwarf_CFI* cfi : {eh_cfi_, debug_cfi_}) {
      if (cfi == nullptr) continue;
      Dwarf_Frame* frame = nullptr;
      if (dwarf_cfi_addrframe(cfi, pc, &frame) != 0 || frame == nullptr) continue;
      Dwarf_Op* ops = nullptr;
      size_t nops = 0;
      std::optional<std::uint64_t> out;
      if (dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops == 1 && ops[0].atom == DW_OP_bregx) {
        const auto off = static_cast<std::int64_t>(ops[0].number2);
        if (ops[0].number == kRegSp) out = sp + static_cast<std::uint64_t>(off);
        if (ops[0].number == kRegFp) out = fp + static_cast<std::uint64_t>(off);
      }
      std::free(frame);
      if (out) return out;
    }
    return std::nullopt;
  }

  // The local variable of the function containing return address `pc` that
  // holds `address` (stack and frame pointer at `pc`: sp, fp). The scopes
  // are the concrete ones at the call (scopes_at), so at -O2/-O3 variables
  // of functions inlined into the caller, of their lexical blocks and of
  // the caller itself are all candidates; their locations may be location
  // lists (evaluated at the call) relative to the frame base, rsp or rbp.
  std::optional<MemoryObject> local(Dwarf_Addr pc, std::uint64_t sp, std::uint64_t fp, std::uint64_t address) {
    const Dwarf_Addr in_call = pc - 1;  // inside the call instruction: its scopes and locations
    const std::vector<Dwarf_Die>& scopes = scopes_at(in_call);
    if (scopes.empty()) return std::nullopt;
    // The frame base of the concrete subprogram (the outermost scope).
    std::optional<std::uint64_t> base;
    {
      Dwarf_Die sub = scopes.back();
      Dwarf_Attribute fb;
      Dwarf_Op op;
      if (dwarf_attr_integrate(&sub, DW_AT_frame_base, &fb) != nullptr && single_op(&fb, in_call, op)) {
        if (op.atom == DW_OP_call_frame_cfa) base = cfa(pc, sp, fp);
        else if (op.atom == DW_OP_breg0 + kRegFp) base = fp + op.number;
        else if (op.atom == DW_OP_reg0 + kRegFp) base = fp;
        else if (op.atom == DW_OP_breg0 + kRegSp) base = sp + op.number;
        else if (op.atom == DW_OP_reg0 + kRegSp) base = sp;
      }
    }
    for (Dwarf_Die scope : scopes) {
      Dwarf_Die child;
      if (dwarf_child(&scope, &child) != 0) continue;
      do {
        const int tag = dwarf_tag(&child);
        if (tag != DW_TAG_variable && tag != DW_TAG_formal_parameter) continue;
        Dwarf_Attribute loc;
        Dwarf_Op op;
        if (dwarf_attr(&child, DW_AT_location, &loc) == nullptr || !single_op(&loc, in_call, op)) continue;
        std::uint64_t begin = 0;
        if (op.atom == DW_OP_fbreg && base) begin = *base + op.number;
        else if (op.atom == DW_OP_breg0 + kRegSp) begin = sp + op.number;
        else if (op.atom == DW_OP_breg0 + kRegFp) begin = fp + op.number;
        else continue;
        Dwarf_Die type;
        MemoryObject obj;
        if (!type_of(&child, &type) || !describe(&type, obj.element, obj.size)) continue;
        if (address < begin || address >= begin + obj.size) continue;
        obj.kind = MemoryObject::Kind::Stack;
        obj.begin = begin;
        obj.name = name_of(&child);
        obj.decl = decl_of(&child);
        return obj;
      } while (dwarf_siblingof(&child, &child) == 0);
    }
    return std::nullopt;
  }

  // The struct and arithmetic types that pointer variables (locals and
  // parameters, `this` of a member function) of the function containing
  // return address `pc`, and of the functions inlined there, point to, by
  // variable name; what a heap block handed to MPI from there holds. char
  // (C's raw bytes), pointers and unions are left out.
  std::vector<std::pair<std::string, CType>> pointed_types(Dwarf_Addr pc) {
    std::vector<std::pair<std::string, CType>> out;
    for (Dwarf_Die scope : scopes_at(pc - 1)) {
      Dwarf_Die child;
      if (dwarf_child(&scope, &child) == 0) do {
          const int tag = dwarf_tag(&child);
          if (tag != DW_TAG_variable && tag != DW_TAG_formal_parameter) continue;
          Dwarf_Die type, peeled, pointee;
          if (!type_of(&child, &type) || dwarf_peel_type(&type, &peeled) != 0 ||
              dwarf_tag(&peeled) != DW_TAG_pointer_type || !type_of(&peeled, &pointee))
            continue;
          // MPI_Request* (an int in MPICH), MPI_Comm*, MPI_Status*: handles
          // and statuses the call writes, never what its buffer holds.
          if (const char* alias = dwarf_tag(&pointee) == DW_TAG_typedef ? dwarf_diename(&pointee) : nullptr;
              alias != nullptr && std::strncmp(alias, "MPI_", 4) == 0)
            continue;
          CType element;
          std::uint64_t size = 0;
          if (!describe(&pointee, element, size)) continue;
          const bool plain = element.cls == CType::Class::Signed || element.cls == CType::Class::Unsigned ||
                             element.cls == CType::Class::Float || element.cls == CType::Class::Bool;
          if (!plain && (element.cls != CType::Class::Struct || element.members.empty())) continue;
          out.emplace_back(name_of(&child), std::move(element));
        } while (dwarf_siblingof(&child, &child) == 0);
    }
    return out;
  }

  // The global or static variable holding module-relative `address`.
  std::optional<MemoryObject> global(std::uint64_t address) {
    if (!globals_built_) build_globals();
    auto it = std::upper_bound(globals_.begin(), globals_.end(), address,
                               [](std::uint64_t a, const Global& g) { return a < g.begin; });
    if (it == globals_.begin()) return std::nullopt;
    --it;
    if (address >= it->begin + it->size) return std::nullopt;
    MemoryObject obj;
    obj.kind = MemoryObject::Kind::Global;
    obj.begin = it->begin;
    obj.size = it->size;
    obj.name = it->name;
    obj.decl = it->decl;
    obj.element = it->element;
    return obj;
  }

 private:
  void add_globals(Dwarf_Die* parent, int depth) {
    Dwarf_Die child;
    if (dwarf_child(parent, &child) != 0) return;
    do {
      const int tag = dwarf_tag(&child);
      if (tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block || tag == DW_TAG_namespace) {
        if (depth < 4) add_globals(&child, depth + 1);  // static locals, namespaces
        continue;
      }
      if (tag != DW_TAG_variable) continue;
      Dwarf_Attribute loc;
      Dwarf_Op* expr = nullptr;
      size_t len = 0;
      if (dwarf_attr(&child, DW_AT_location, &loc) == nullptr || dwarf_getlocation(&loc, &expr, &len) != 0 ||
          len != 1 || expr[0].atom != DW_OP_addr)
        continue;
      Global g;
      g.begin = expr[0].number;
      Dwarf_Die type;
      if (!type_of(&child, &type) || !describe(&type, g.element, g.size)) continue;
      Dwarf_Attribute nattr;
      const char* name = dwarf_attr_integrate(&child, DW_AT_name, &nattr) != nullptr ? dwarf_formstring(&nattr) : nullptr;
      g.name = name != nullptr ? name : "?";
      g.decl = decl_of(&child);
      globals_.push_back(std::move(g));
    } while (dwarf_siblingof(&child, &child) == 0);
  }
  void build_globals() {
    globals_built_ = true;
    Dwarf_Off off = 0, next = 0;
    size_t header = 0;
    while (dwarf_nextcu(dbg_, off, &next, &header, nullptr, nullptr, nullptr) == 0) {
      Dwarf_Die cu;
      if (dwarf_offdie(dbg_, off + header, &cu) != nullptr) add_globals(&cu, 0);
      off = next;
    }
    std::sort(globals_.begin(), globals_.end(), [](const Global& a, const Global& b) { return a.begin < b.begin; });
  }

  // The concrete scopes containing `pc`, innermost first, ending with the
  // concrete subprogram: lexical blocks, DW_TAG_inlined_subroutine
  // instances and the out-of-line function they were inlined into (unlike
  // dwarf_getscopes, which continues an inlined instance with its abstract
  // definition's scopes, where no variable has a location). Cached per pc.
  const std::vector<Dwarf_Die>& scopes_at(Dwarf_Addr pc) {
    auto [it, fresh] = scopes_.try_emplace(pc);
    if (!fresh) return it->second;
    Dwarf_Die cu;
    if (dwarf_addrdie(dbg_, pc, &cu) == nullptr) return it->second;
    std::vector<Dwarf_Die> chain;
    descend(&cu, pc, chain, 0);
    std::reverse(chain.begin(), chain.end());
    // Innermost first, up to the outermost subprogram.
    it->second = std::move(chain);
    return it->second;
  }
  static bool descend(Dwarf_Die* parent, Dwarf_Addr pc, std::vector<Dwarf_Die>& chain, int depth) {
    if (depth > 64) return false;
    Dwarf_Die child;
    if (dwarf_child(parent, &child) != 0) return false;
    do {
      const int tag = dwarf_tag(&child);
      if (tag == DW_TAG_namespace || tag == DW_TAG_structure_type || tag == DW_TAG_class_type) {
        if (chain.empty() && descend(&child, pc, chain, depth + 1)) return true;  // out-of-line members nested there
        continue;
      }
      if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block) continue;
      if (dwarf_haspc(&child, pc) <= 0) continue;
      chain.push_back(child);
      descend(&child, pc, chain, depth + 1);
      return true;
    } while (dwarf_siblingof(&child, &child) == 0);
    return false;
  }

  int fd_ = -1;
  Dwarf* dbg_ = nullptr;
  std::map<Dwarf_Addr, std::vector<Dwarf_Die>> scopes_;
  Dwarf_CFI* eh_cfi_ = nullptr;
  Dwarf_CFI* debug_cfi_ = nullptr;
  bool globals_built_ = false;
  std::vector<Global> globals_;
};

// ranks/N.frames: "<seq> <site> <sp-hex> <fp-hex>" (injectors/recorder/handlers_usage_buffers.cpp).
struct FrameLine {
  std::uint64_t seq = 0, sp = 0, fp = 0;
};
std::map<std::uint32_t, std::vector<FrameLine>> read_frames(const fs::path& file) {
  std::map<std::uint32_t, std::vector<FrameLine>> out;
  std::ifstream in(file);
  std::string line;
  std::size_t lines = 0;
  while (std::getline(in, line) && ++lines < (1u << 22)) {
    std::istringstream ls(line);
    FrameLine f;
    std::uint32_t site = 0;
    if (!(ls >> f.seq >> site >> std::hex >> f.sp >> f.fp)) continue;
    out[site].push_back(f);
  }
  for (auto& [site, v] : out)
    std::stable_sort(v.begin(), v.end(), [](const FrameLine& a, const FrameLine& b) { return a.seq < b.seq; });
  return out;
}

}  // namespace

struct MemoryObjects::Impl {
  struct Rank {
    std::vector<trace::ModuleSegment> segments;
    std::map<std::uint32_t, std::vector<FrameLine>> frames;
    std::optional<trace::HeapSweep> heap;
  };
  const trace::RunTrace& trace;
  std::map<int, Rank> ranks;
  std::map<std::string, std::unique_ptr<Module>> modules;
  std::map<std::uint64_t, std::vector<std::pair<std::string, CType>>> pointed;  // by return address
  trace::Symbolizer symbolizer;

  Impl(const fs::path& run_dir, const trace::RunTrace& t) : trace(t) {
    for (const auto& rt : t.ranks) {
      if (rt.rank < 0) continue;
      Rank r;
      const fs::path base = run_dir / "ranks" / std::to_string(rt.rank);
      try {
        r.segments = trace::read_modules(base.string() + ".modules");
      } catch (const std::exception&) {
      }
      r.frames = read_frames(base.string() + ".frames");
      try {
        auto log = trace::read_allocs(run_dir, rt.rank);
        if (!log.empty()) r.heap.emplace(std::move(log));
      } catch (const std::exception&) {
      }
      ranks.emplace(rt.rank, std::move(r));
    }
  }

  void type_heap_block(Rank& r, const trace::RankTrace& rt, const trace::Event& e, std::uint64_t address,
                       MemoryObject& obj);
  Module* module(const std::string& path) {
    auto it = modules.find(path);
    if (it == modules.end()) it = modules.emplace(path, std::make_unique<Module>(path)).first;
    return it->second->usable() ? it->second.get() : nullptr;
  }
  // (module, module-relative address) of a runtime address.
  std::pair<Module*, std::uint64_t> locate(const Rank& r, std::uint64_t address) {
    for (const auto& s : r.segments)
      if (address >= s.begin && address < s.end)
        return {application_module(s.path) ? module(s.path) : nullptr, address - s.begin + s.offset};
    return {nullptr, 0};
  }
};

MemoryObjects::MemoryObjects(const fs::path& run_dir, const trace::RunTrace& trace)
    : impl_(std::make_unique<Impl>(run_dir, trace)) {}
MemoryObjects::~MemoryObjects() = default;

// A heap block's element type, inferred from the calling function's pointer
// variables: when exactly one pointee type (struct or arithmetic) has a size
// that divides the block and the buffer's offset in it, the block is taken
// to hold those (malloc(n * sizeof(S)) assigned to an S*). Two candidate
// types: unknown.
void MemoryObjects::Impl::type_heap_block(Rank& r, const trace::RankTrace& rt, const trace::Event& e,
                                          std::uint64_t address, MemoryObject& obj) {
  if (e.callsite >= rt.sites.size() || rt.sites[e.callsite].frames.empty()) return;
  const std::uint64_t ra = rt.sites[e.callsite].frames[0];
  auto it = pointed.find(ra);
  if (it == pointed.end()) {
    auto [m, pc] = locate(r, ra);
    it = pointed.emplace(ra, m != nullptr ? m->pointed_types(pc) : decltype(pointed)::mapped_type{}).first;
  }
  const std::pair<std::string, CType>* only = nullptr;
  for (const auto& candidate : it->second) {
    const auto size = static_cast<std::uint64_t>(candidate.second.size);
    if (size == 0 || obj.size % size != 0) continue;
    // The buffer starts an element, or (a struct) one of its members: a
    // member function's `this->member` in a block holding that object.
    const std::int64_t at = static_cast<std::int64_t>((address - obj.begin) % size);
    const auto& members = candidate.second.members;
    if (at != 0 && std::none_of(members.begin(), members.end(),
                                [&](const CType::Member& m) { return m.offset == at && !m.type.empty(); }))
      continue;
    if (only != nullptr && only->second.name != candidate.second.name) return;  // two struct types: unknown
    if (only == nullptr) only = &candidate;
  }
  if (only == nullptr) return;
  obj.element = only->second;
  obj.typed_by = "pointer variable '" + only->first + "'";
}

std::optional<MemoryObject> MemoryObjects::find(int rank, std::size_t event, std::uint64_t address) {
  auto rit = impl_->ranks.find(rank);
  if (rit == impl_->ranks.end()) return std::nullopt;
  Impl::Rank& r = rit->second;
  const trace::RankTrace& rt = impl_->trace.ranks[static_cast<std::size_t>(rank)];
  const trace::Event& e = rt.events[event];
  // Stack: the latest frame line of the call site at or before this record.
  if (auto f = r.frames.find(e.callsite); f != r.frames.end() && e.callsite < rt.sites.size() &&
                                          !rt.sites[e.callsite].frames.empty()) {
    const auto& lines = f->second;
    auto it = std::upper_bound(lines.begin(), lines.end(), e.seq,
                               [](std::uint64_t s, const FrameLine& l) { return s < l.seq; });
    if (it != lines.begin() && address >= std::prev(it)->sp) {
      const FrameLine& fl = *std::prev(it);
      const std::uint64_t ra = rt.sites[e.callsite].frames[0];
      auto [m, pc] = impl_->locate(r, ra);
      if (m != nullptr) {
        // Link-time pc: the runtime stack values stay as they are.
        if (auto obj = m->local(pc, fl.sp, fl.fp, address)) return obj;
      }
      return std::nullopt;  // on the stack, in no variable of the calling function we know
    }
  }
  // Heap: a live recorded block at the call's time.
  if (r.heap) {
    auto b = r.heap->at(address, e.t_enter_ns);
    if (b.site != 0 && address >= b.addr && address < b.addr + b.size) {
      MemoryObject obj;
      obj.kind = MemoryObject::Kind::Heap;
      obj.begin = b.addr;
      obj.size = b.size;
      obj.name = std::to_string(b.size) + "-byte block";
      auto frames = impl_->symbolizer.symbolize_addresses({b.site}, r.segments);
      if (!frames.empty() && !frames[0].file.empty()) {
        std::string f = frames[0].file;
        if (auto slash = f.rfind('/'); slash != std::string::npos) f = f.substr(slash + 1);
        obj.decl = f + ":" + std::to_string(frames[0].line);
      }
      impl_->type_heap_block(r, rt, e, address, obj);
      return obj;
    }
  }
  // Globals and static locals of application modules.
  const bool in_module = std::any_of(r.segments.begin(), r.segments.end(), [&](const trace::ModuleSegment& s) {
    return address >= s.begin && address < s.end;
  });
  if (!in_module && !r.segments.empty()) {
    // Neither stack, module nor a recorded block: a heap block below the
    // allocator log's size threshold. Its size is unknown (0); it is an
    // object only when the caller's pointer variables give it a struct type.
    MemoryObject obj;
    obj.kind = MemoryObject::Kind::Heap;
    obj.begin = address;
    obj.name = "small heap block";
    impl_->type_heap_block(r, rt, e, address, obj);
    if (obj.typed_by.empty()) return std::nullopt;
    return obj;
  }
  auto [m, rel] = impl_->locate(r, address);
  if (m == nullptr) return std::nullopt;
  auto obj = m->global(rel);
  if (obj) obj->begin = address - (rel - obj->begin);  // back to the rank's addresses
  return obj;
}

}  // namespace scalefuzz::detectors::usage
