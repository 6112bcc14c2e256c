#include "decisions.hpp"

#include <elf.h>
#include <unistd.h>
#include <link.h>

#include <cstdio>
#include <cstring>

#include "mapped.hpp"
#include "replay.hpp"
#include "scalefuzz/trace/header.hpp"
#include "state.hpp"

namespace scalefuzz::inject {

namespace {
// 16 MiB of entries per rank (sparse until written): ~8 M wildcard matches at
// the 2 bytes of a typical entry. A full log stops growing (a replay of it
// ends there and says so).
constexpr std::size_t kStreamCapacity = std::size_t{16} << 20;
constexpr std::size_t kPreamble = sizeof(trace::DecisionPreamble);

struct Writer {
  FixedMapping file;
  std::uint8_t* stream = nullptr;  // after the preamble
  std::size_t used = 0;
  bool full = false;
  trace::DecisionCursor cursor;
  std::uint64_t ordinals = 0;      // wildcard posts so far
  std::uint64_t failures = 0;      // unsuccessful polls since the last poll decision
};
Writer* g_writer = nullptr;

// Appends an encoded entry: every byte but the first, then the first (the
// nonzero kind byte a reader stops at), so a kill never leaves a half entry
// that looks complete.
void append(const std::uint8_t* entry, std::size_t n) {
  Writer& w = *g_writer;
  if (w.full) return;
  if (w.used + n > kStreamCapacity) {
    w.full = true;
    std::fprintf(stderr, "scalefuzz: rank %d: the decision log is full (%zu bytes); later decisions are not logged\n",
                 g_state->rank, kStreamCapacity);
    return;
  }
  std::uint8_t* at = w.stream + w.used;
  std::memcpy(at + 1, entry + 1, n - 1);
  __atomic_store_n(at, entry[0], __ATOMIC_RELEASE);
  w.used += n;
}

struct BuildIdSearch {
  std::uint8_t* out;
  std::size_t max;
  std::size_t found = 0;
};
int find_build_id(struct dl_phdr_info* info, std::size_t, void* data) {
  auto* s = static_cast<BuildIdSearch*>(data);
  // The first object is the main program.
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const std::uint8_t*>(info->dlpi_addr + ph.p_vaddr);
    const std::uint8_t* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const auto* nh = reinterpret_cast<const ElfW(Nhdr)*>(p);
      const std::uint8_t* name = p + sizeof(ElfW(Nhdr));
      const std::uint8_t* desc = name + ((nh->n_namesz + 3) & ~3u);
      if (desc + nh->n_descsz > end) break;
      if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        s->found = nh->n_descsz < s->max ? nh->n_descsz : s->max;
        std::memcpy(s->out, desc, s->found);
        return 1;
      }
      p = desc + ((nh->n_descsz + 3) & ~3u);
    }
  }
  return 1;  // only the main program
}
}  // namespace

std::size_t exe_build_id(std::uint8_t* out, std::size_t max) {
  BuildIdSearch s{out, max};
  dl_iterate_phdr(find_build_id, &s);
  return s.found;
}

bool decisions_open(State& s, const std::string& path) {
  auto* w = new Writer();
  const trace::FileHeader h = trace::make_header(trace::FileKind::Decisions, s.rank, s.size, 1, s.start_ns, ::getpid(),
                                                 std::getenv("SCALEFUZZ_RUN_ID"));
  if (!w->file.open(path.c_str(), h, 1, kPreamble + kStreamCapacity)) {
    std::fprintf(stderr, "scalefuzz: rank %d: cannot create %s: %s; no decision log\n", s.rank, path.c_str(),
                 std::strerror(errno));
    delete w;
    return false;
  }
  auto* pre = static_cast<trace::DecisionPreamble*>(w->file.records());
  pre->build_id_len = static_cast<std::uint32_t>(exe_build_id(pre->build_id, sizeof pre->build_id));
  w->stream = static_cast<std::uint8_t*>(w->file.records()) + kPreamble;
  g_writer = w;
  return true;
}

void decisions_close() {
  if (g_writer == nullptr) return;
  Writer& w = *g_writer;
  std::uint8_t e[32];
  const std::uint64_t call = current_call();
  if (w.failures != 0) append(e, trace::encode_simple(e, w.cursor, trace::decision_code::kFails, call, w.failures));
  append(e, trace::encode_simple(e, w.cursor, trace::decision_code::kEnd, call, 0));
  w.file.truncate_to(kPreamble + w.used);
  g_writer = nullptr;  // the mapping stays (never unmapped: a late call would fault)
}

std::uint64_t current_call() { return g_state->live->calls; }

std::uint64_t decision_post() {
  if (g_writer == nullptr) return 0;
  StateLock lock;
  return ++g_writer->ordinals;
}

void decision_match(std::uint64_t ordinal, std::int32_t source, std::int32_t tag) {
  if (g_writer == nullptr || ordinal == 0) return;
  const std::uint64_t call = current_call();
  if (g_replaying) replay_check_match(ordinal, source, tag, call);
  std::uint8_t e[40];
  StateLock lock;
  append(e, trace::encode_match(e, g_writer->cursor, call, ordinal, source, tag));
}

void decision_poll_failed() {
  if (g_writer == nullptr) return;
  StateLock lock;
  ++g_writer->failures;
}

void decision_poll() {
  if (g_writer == nullptr) return;
  std::uint8_t e[32];
  StateLock lock;
  append(e, trace::encode_simple(e, g_writer->cursor, trace::decision_code::kPoll, current_call(), g_writer->failures));
  g_writer->failures = 0;
}

void decision_index(int index) {
  if (g_writer == nullptr) return;
  std::uint8_t e[40];
  StateLock lock;
  append(e, trace::encode_index(e, g_writer->cursor, current_call(), g_writer->failures, index == MPI_UNDEFINED ? -1 : index));
  g_writer->failures = 0;
}

void decision_some(const int* indices, int count) {
  if (g_writer == nullptr) return;
  if (count == MPI_UNDEFINED) count = 0;
  std::uint8_t small[256];
  const std::size_t need = 1 + 10 * (static_cast<std::size_t>(count) + 3);
  std::uint8_t* e = need <= sizeof small ? small : new std::uint8_t[need];
  {
    StateLock lock;
    append(e, trace::encode_some(e, g_writer->cursor, current_call(), g_writer->failures, indices, count));
    g_writer->failures = 0;
  }
  if (e != small) delete[] e;
}

}  // namespace scalefuzz::inject
