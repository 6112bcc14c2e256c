#include "types.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "int_map.hpp"
#include "scalefuzz/trace/format.hpp"
#include "state.hpp"

namespace scalefuzz::inject {

thread_local constinit bool tl_probing = false;

namespace {

constexpr int kMaxRuns = 32;
constexpr int kMaxDepth = 16;

struct Signature {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> runs;  // (primitive key, repetitions)
  bool overflow = false;
  void add(std::uint32_t prim, std::uint64_t n) {
    if (n == 0 || overflow) return;
    if (!runs.empty() && runs.back().first == prim) {
      runs.back().second += n;
      return;
    }
    if (static_cast<int>(runs.size()) >= kMaxRuns) {
      overflow = true;
      return;
    }
    runs.emplace_back(prim, n);
  }
  void append(const Signature& o, std::uint64_t times) {
    if (o.overflow) overflow = true;
    if (o.runs.size() == 1) {
      add(o.runs[0].first, o.runs[0].second * times);
      return;
    }
    for (std::uint64_t t = 0; t < times && !overflow; ++t)
      for (const auto& r : o.runs) add(r.first, r.second);
  }
};

int fd_types = -1;
int fd_errors = -1;
std::uint32_t next_derived_key = 1;
IntMap<TypeInfo>* cache = nullptr;

class Probe {
 public:
  Probe() : old_(tl_probing) { tl_probing = true; }
  ~Probe() { tl_probing = old_; }
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

 private:
  bool old_;
};

std::uint32_t named_key(MPI_Datatype t) { return predefined_type_key(t); }

bool flatten(MPI_Datatype t, Signature& out, int depth);

// Flattens the `i`-th datatype of a get_contents answer and frees it if derived.
bool flatten_inner(MPI_Datatype inner, std::uint64_t times, Signature& out, int depth) {
  Signature s;
  bool ok = flatten(inner, s, depth + 1);
  int ni = 0, na = 0, nd = 0, comb = 0;
  if (PMPI_Type_get_envelope(inner, &ni, &na, &nd, &comb) == MPI_SUCCESS && comb != MPI_COMBINER_NAMED)
    PMPI_Type_free(&inner);
  if (ok) out.append(s, times);
  return ok;
}

bool flatten(MPI_Datatype t, Signature& out, int depth) {
  if (depth > kMaxDepth) return false;
  int ni = 0, na = 0, nd = 0, comb = 0;
  if (PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS) return false;
  if (comb == MPI_COMBINER_NAMED) {
    out.add(named_key(t), 1);
    return true;
  }
  std::vector<int> ints(static_cast<std::size_t>(ni));
  std::vector<MPI_Aint> aints(static_cast<std::size_t>(na));
  std::vector<MPI_Datatype> types(static_cast<std::size_t>(nd));
  if (PMPI_Type_get_contents(t, ni, na, nd, ints.data(), aints.data(), types.data()) != MPI_SUCCESS) return false;
  auto nonneg = [](long long v) { return v < 0 ? 0ull : static_cast<std::uint64_t>(v); };
  switch (comb) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
      return flatten_inner(types[0], 1, out, depth);
    case MPI_COMBINER_CONTIGUOUS:
      return flatten_inner(types[0], nonneg(ints[0]), out, depth);
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK:
      return flatten_inner(types[0], nonneg(ints[0]) * nonneg(ints[1]), out, depth);
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED: {
      std::uint64_t n = 0;
      for (int i = 0; i < ints[0]; ++i) n += nonneg(ints[1 + i]);
      return flatten_inner(types[0], n, out, depth);
    }
    case MPI_COMBINER_STRUCT: {
      bool ok = true;
      for (int i = 0; i < ints[0]; ++i) ok = flatten_inner(types[static_cast<std::size_t>(i)], nonneg(ints[1 + i]), out, depth) && ok;
      return ok;
    }
    case MPI_COMBINER_SUBARRAY: {
      int nd_ = ints[0];
      std::uint64_t n = 1;
      for (int i = 0; i < nd_; ++i) n *= nonneg(ints[1 + nd_ + i]);
      return flatten_inner(types[0], n, out, depth);
    }
    default:
      for (auto& inner : types) {
        int a = 0, b = 0, c = 0, k = 0;
        if (PMPI_Type_get_envelope(inner, &a, &b, &c, &k) == MPI_SUCCESS && k != MPI_COMBINER_NAMED)
          PMPI_Type_free(&inner);
      }
      return false;
  }
}

// The type map of one element, (primitive key, byte displacement) per basic
// entry (MPI-4.0 §5.1), for the usage checks that compare a derived type with
// the C struct its buffer holds. At most kMaxMapEntries entries (else unknown);
// computed once per type, at its first use.
constexpr std::size_t kMaxMapEntries = 64;
using TypeMap = std::vector<std::pair<std::uint32_t, long long>>;

bool map_of(MPI_Datatype t, long long disp, TypeMap& out, int depth);

bool map_inner(MPI_Datatype inner, const std::vector<long long>& displacements, TypeMap& out, int depth) {
  bool ok = true;
  for (long long d : displacements)
    if (!(ok = map_of(inner, d, out, depth + 1))) break;
  int ni = 0, na = 0, nd = 0, comb = 0;
  if (PMPI_Type_get_envelope(inner, &ni, &na, &nd, &comb) == MPI_SUCCESS && comb != MPI_COMBINER_NAMED)
    PMPI_Type_free(&inner);
  return ok;
}

bool map_of(MPI_Datatype t, long long disp, TypeMap& out, int depth) {
  if (depth > kMaxDepth) return false;
  int ni = 0, na = 0, nd = 0, comb = 0;
  if (PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS) return false;
  if (comb == MPI_COMBINER_NAMED) {
    if (out.size() >= kMaxMapEntries) return false;
    out.emplace_back(named_key(t), disp);
    return true;
  }
  std::vector<int> ints(static_cast<std::size_t>(ni));
  std::vector<MPI_Aint> aints(static_cast<std::size_t>(na));
  std::vector<MPI_Datatype> types(static_cast<std::size_t>(nd));
  if (PMPI_Type_get_contents(t, ni, na, nd, ints.data(), aints.data(), types.data()) != MPI_SUCCESS) return false;
  auto extent_of = [](MPI_Datatype x) {
    MPI_Aint lb = 0, extent = 0;
    PMPI_Type_get_extent(x, &lb, &extent);
    return static_cast<long long>(extent);
  };
  // Element displacements of the inner type, bounded like the map itself.
  std::vector<long long> at;
  auto blocks = [&](long long start, long long blocklength, long long unit) {
    for (long long j = 0; j < blocklength && at.size() <= kMaxMapEntries; ++j) at.push_back(start + j * unit);
  };
  bool ok = true;
  switch (comb) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
      blocks(disp, 1, 0);
      break;
    case MPI_COMBINER_CONTIGUOUS:
      blocks(disp, ints[0], extent_of(types[0]));
      break;
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: {
      const long long e = extent_of(types[0]);
      const long long stride = comb == MPI_COMBINER_VECTOR ? ints[2] * e : static_cast<long long>(aints[0]);
      for (long long i = 0; i < ints[0] && at.size() <= kMaxMapEntries; ++i) blocks(disp + i * stride, ints[1], e);
      break;
    }
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED: {
      const long long e = extent_of(types[0]);
      for (int i = 0; i < ints[0]; ++i)
        blocks(disp + (comb == MPI_COMBINER_INDEXED ? ints[1 + ints[0] + i] * e : static_cast<long long>(aints[i])),
               ints[1 + i], e);
      break;
    }
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK: {
      const long long e = extent_of(types[0]);
      for (int i = 0; i < ints[0]; ++i)
        blocks(disp + (comb == MPI_COMBINER_INDEXED_BLOCK ? ints[2 + i] * e : static_cast<long long>(aints[i])),
               ints[1], e);
      break;
    }
    case MPI_COMBINER_STRUCT:
      for (int i = 0; i < ints[0]; ++i) {
        at.clear();
        if (ok) blocks(disp + static_cast<long long>(aints[i]), ints[1 + i], extent_of(types[i]));
        ok = map_inner(types[i], ok ? at : std::vector<long long>{}, out, depth) && ok;
      }
      return ok;
    default:
      ok = false;
      break;
  }
  for (auto& inner : types) {
    if (ok && at.size() <= kMaxMapEntries) ok = map_inner(inner, at, out, depth);
    else map_inner(inner, {}, out, depth);  // frees it
  }
  return ok && at.size() <= kMaxMapEntries;
}

std::uint64_t signature_hash(const Signature& s) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  for (const auto& r : s.runs) {
    mix(r.first);
    mix(r.second);
  }
  return h;
}

void write_type_line(std::uint32_t key, MPI_Datatype t, int size, bool predefined) {
  Signature sig;
  bool known = flatten(t, sig, 0);
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_get_extent(t, &lb, &extent);
  char name[MPI_MAX_OBJECT_NAME] = {};
  int len = 0;
  if (PMPI_Type_get_name(t, name, &len) != MPI_SUCCESS || len == 0) std::snprintf(name, sizeof name, "-");
  for (char* p = name; *p; ++p)
    if (*p == ' ') *p = '_';
  std::string line;
  char buf[160];
  int committed = 1;  // MPI has no query; uncommitted use is an MPI error MPICH reports
  std::snprintf(buf, sizeof buf, "%x %d %lld %lld %d %d %s %llx %d", key, size, static_cast<long long>(extent),
                static_cast<long long>(lb), committed, predefined ? 1 : 0, name,
                static_cast<unsigned long long>(signature_hash(sig)),
                known && !sig.overflow ? static_cast<int>(sig.runs.size()) : -1);
  line = buf;
  if (known && !sig.overflow)
    for (const auto& r : sig.runs) {
      std::snprintf(buf, sizeof buf, " %x:%llu", r.first, static_cast<unsigned long long>(r.second));
      line += buf;
    }
  if (!predefined) {
    TypeMap map;
    const bool mapped = map_of(t, 0, map, 0);
    std::snprintf(buf, sizeof buf, " map %d", mapped ? static_cast<int>(map.size()) : -1);
    line += buf;
    if (mapped)
      for (const auto& [prim, disp] : map) {
        std::snprintf(buf, sizeof buf, " %x@%lld", prim, disp);
        line += buf;
      }
  }
  line += "\n";
  if (fd_types >= 0) (void)!::write(fd_types, line.data(), line.size());
}

// A type of `size` bytes whose instances are gap-free and start at their
// address (the buffer checks hash or measure such buffers as one range; the
// noise copies such payloads). The true extent too: a type resized to its
// size may still hold data outside [0, size).
bool contiguous(MPI_Datatype t, int size) {
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  return PMPI_Type_get_extent(t, &lb, &extent) == MPI_SUCCESS && lb == 0 && extent == size &&
         PMPI_Type_get_true_extent(t, &true_lb, &true_extent) == MPI_SUCCESS && true_lb == 0 && true_extent == size;
}

TypeInfo register_type(MPI_Datatype t) {
  TypeInfo info;
  int ni = 0, na = 0, nd = 0, comb = 0;
  if (PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS) {
    info.key = trace::kTypeNull;
    return info;  // not cached: an invalid handle may become valid later
  }
  int size = 0;
  PMPI_Type_size(t, &size);
  info.size = size;
  info.contiguous = contiguous(t, size);
  bool predefined = comb == MPI_COMBINER_NAMED;
  info.key = predefined ? named_key(t) : next_derived_key++;
  write_type_line(info.key, t, size, predefined);
  // Named types' primitives in a derived signature are described too.
  if (!predefined) {
    Signature sig;
    if (flatten(t, sig, 0))
      for (const auto& r : sig.runs)
        if (MPI_Datatype prim = predefined_type_of_key(r.first); cache->find(handle_key(prim)) == nullptr) {
          int psize = 0;
          PMPI_Type_size(prim, &psize);
          write_type_line(r.first, prim, psize, true);
          cache->insert(handle_key(prim), TypeInfo{r.first, psize, contiguous(prim, psize)});
        }
  }
  cache->insert(handle_key(t), info);
  return info;
}

}  // namespace

namespace types_detail {
constinit unsigned g_type_generation = 1;
thread_local constinit MPI_Datatype tl_memo_type = MPI_DATATYPE_NULL;
thread_local constinit TypeInfo tl_memo{};
thread_local constinit unsigned tl_memo_generation = 0;
}  // namespace types_detail
using namespace types_detail;

TypeInfo type_info_slow(MPI_Datatype t) {
  if (t == MPI_DATATYPE_NULL) return TypeInfo{trace::kTypeNull, 0, false};
  const unsigned generation = __atomic_load_n(&g_type_generation, __ATOMIC_ACQUIRE);
  if (t == tl_memo_type && tl_memo_generation == generation) return tl_memo;
  TypeInfo info;
  {
    StateLock lock;
    if (cache == nullptr) cache = new IntMap<TypeInfo>(64);
    if (const TypeInfo* hit = cache->find(handle_key(t))) {
      info = *hit;
    } else {
      Probe probe;
      info = register_type(t);
    }
  }
  if (info.key != trace::kTypeNull) {  // an invalid handle is not cached (register_type)
    tl_memo_type = t;
    tl_memo = info;
    tl_memo_generation = generation;
  }
  return info;
}

void forget_type(MPI_Datatype t) {
  StateLock lock;
  if (cache != nullptr) cache->erase(handle_key(t));
  // After the erase: a thread that reads the new generation finds t gone.
  __atomic_fetch_add(&g_type_generation, 1, __ATOMIC_ACQ_REL);
}

#if defined(MPICH_VERSION)
// reduce_op_code()'s inline range test (types.hpp): MPICH's predefined ops,
// listed in trace::ReduceOp's order Max (1) .. NoOp (14), are 0x58000001 ..
// 0x5800000e.
constexpr bool mpich_ops_in_reduce_op_order() {
  const MPI_Op in_order[] = {MPI_MAX,  MPI_MIN,  MPI_SUM,    MPI_PROD,   MPI_LAND,    MPI_BAND,  MPI_LOR,
                             MPI_BOR,  MPI_LXOR, MPI_BXOR,   MPI_MINLOC, MPI_MAXLOC,  MPI_REPLACE, MPI_NO_OP};
  for (unsigned i = 0; i < 14; ++i)
    if (static_cast<std::uint32_t>(in_order[i]) != 0x58000001u + i) return false;
  return static_cast<unsigned>(trace::ReduceOp::Max) == 1 && static_cast<unsigned>(trace::ReduceOp::NoOp) == 14;
}
static_assert(mpich_ops_in_reduce_op_order());
#endif

std::uint8_t reduce_op_code_slow(MPI_Op op) {
  using trace::ReduceOp;
  ReduceOp r = ReduceOp::User;
  if (op == MPI_OP_NULL) r = ReduceOp::Null;
  else if (op == MPI_MAX) r = ReduceOp::Max;
  else if (op == MPI_MIN) r = ReduceOp::Min;
  else if (op == MPI_SUM) r = ReduceOp::Sum;
  else if (op == MPI_PROD) r = ReduceOp::Prod;
  else if (op == MPI_LAND) r = ReduceOp::Land;
  else if (op == MPI_BAND) r = ReduceOp::Band;
  else if (op == MPI_LOR) r = ReduceOp::Lor;
  else if (op == MPI_BOR) r = ReduceOp::Bor;
  else if (op == MPI_LXOR) r = ReduceOp::Lxor;
  else if (op == MPI_BXOR) r = ReduceOp::Bxor;
  else if (op == MPI_MINLOC) r = ReduceOp::Minloc;
  else if (op == MPI_MAXLOC) r = ReduceOp::Maxloc;
  else if (op == MPI_REPLACE) r = ReduceOp::Replace;
  else if (op == MPI_NO_OP) r = ReduceOp::NoOp;
  return static_cast<std::uint8_t>(r);
}

void open_usage_files(const char* ranks_dir, int rank) {
  std::string base = std::string(ranks_dir) + "/" + std::to_string(rank);
  fd_types = ::open((base + ".types").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  fd_errors = ::open((base + ".errors").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  open_frames_file((base + ".frames").c_str());
}

void write_error_line(std::uint64_t seq, int code, const char* message) {
  if (fd_errors < 0) return;
  int cls = 0;
  PMPI_Error_class(code, &cls);
  // One line per error: MPICH's stack lines are joined with " | ".
  std::string text;
  for (const char* p = message; *p; ++p) text += *p == '\n' ? std::string(" | ") : std::string(1, *p);
  char head[64];
  std::snprintf(head, sizeof head, "%llu %d %d ", static_cast<unsigned long long>(seq), code, cls);
  std::string line = head + text + "\n";
  (void)!::write(fd_errors, line.data(), line.size());
}

}  // namespace scalefuzz::inject
