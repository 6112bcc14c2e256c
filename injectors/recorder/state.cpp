// Recorder setup in the MPI_Init wrapper, teardown in MPI_Finalize, and the
// N.modules file. Nothing here runs in a process that never calls MPI_Init.
#include "state.hpp"
#include "types.hpp"

#include <dlfcn.h>
#include <link.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "alloc.hpp"
#include "decisions.hpp"
#include "hooks.hpp"
#include "oversub.hpp"
#include "receive_guard.hpp"
#include "record.hpp"
#include "replay.hpp"
#include "stall.hpp"
#include "scalefuzz/trace/header.hpp"
#include "scalefuzz/injector/env.hpp"

namespace scalefuzz::inject {

constinit bool g_enabled = false;
constinit bool g_zero_buffer = false;
thread_local constinit int tl_depth = 0;
State* g_state = nullptr;

namespace hooks_detail {
constinit NoiseHooks g_hooks{};
constinit bool g_hooks_set = false;
}  // namespace hooks_detail
using hooks_detail::g_hooks;
using hooks_detail::g_hooks_set;

namespace {

constexpr std::size_t kSiteCapacity = 16384;     // distinct call sites per rank
constexpr std::size_t kMarkovCapacity = 1 << 15;  // edge slots (70% usable: ~22,900 edges)

void warn(const char* fmt, const char* a, const char* b = "") {
  std::fprintf(stderr, "scalefuzz injector: ");
  std::fprintf(stderr, fmt, a, b);
  std::fputc('\n', stderr);
}

bool make_dirs(const std::string& path) {
  std::string cur;
  for (std::size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      if (!cur.empty() && ::mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) return false;
    }
    if (i < path.size()) cur += path[i];
  }
  return true;
}

struct ModuleWriter {
  FILE* out;
  State* s;
};

int module_cb(dl_phdr_info* info, size_t, void* data) {
  auto* w = static_cast<ModuleWriter*>(data);
  const char* name = info->dlpi_name;
  bool main_program = name == nullptr || name[0] == '\0';
  if (main_program) name = w->s->exe_path.c_str();
  if (name[0] != '/') return 0;  // vdso and other pseudo objects
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    std::uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
    std::uintptr_t end = begin + ph.p_memsz;
    w->s->module_ranges.emplace_back(begin, end);
    if (w->out != nullptr)
      std::fprintf(w->out, "%lx %lx %lx %s\n", static_cast<unsigned long>(begin), static_cast<unsigned long>(end),
                   static_cast<unsigned long>(ph.p_vaddr), name);
  }
  return 0;
}

struct ModuleFinder {
  std::uintptr_t probe;
  std::uintptr_t begin = 0, end = 0;
};

int module_cb_find(dl_phdr_info* info, size_t, void* data) {
  auto* f = static_cast<ModuleFinder*>(data);
  std::uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    std::uintptr_t b = info->dlpi_addr + ph.p_vaddr;
    if (b < lo) lo = b;
    if (b + ph.p_memsz > hi) hi = b + ph.p_memsz;
  }
  if (f->probe >= lo && f->probe < hi) {
    f->begin = lo;
    f->end = hi;
    return 1;
  }
  return 0;
}

std::string exe_path() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "/proc/self/exe";
  buf[n] = '\0';
  return buf;
}

int online_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

void decide_oversubscription(State& s) {
  int local = 1;
  MPI_Comm node = MPI_COMM_NULL;
  if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS &&
      node != MPI_COMM_NULL) {
    PMPI_Comm_size(node, &local);
    PMPI_Comm_free(&node);
  }
  int cores = online_cpus();
  const char* mode = injector::env_value(injector::Env::Oversubscribe);
  std::string m = mode != nullptr ? mode : "auto";
  if (m == "on" || m == "1") {
    s.oversubscribe = true;
  } else if (m == "off" || m == "0") {
    s.oversubscribe = false;
  } else {
    if (m != "auto" && m != "")
      warn("SCALEFUZZ_OVERSUBSCRIBE=%s is not auto|on|off; using auto", m.c_str());
    s.oversubscribe = local > cores;
  }
  if (const char* spins = injector::env_value(injector::Env::OversubscribeSpins)) s.oversub_spins = std::atoi(spins);
  // Sleeps double from 1 us up to this cap while a call waits: the more
  // ranks share a core, the less often each should wake up to poll.
  // Measured on 2 cores: best caps ~32 us at 16 ranks, ~64-128 us at 32.
  int per_core = local / std::max(1, cores);
  s.oversub_max_sleep_ns = per_core <= 2 ? 1000L : 4000L * per_core;
  if (const char* cap = injector::env_value(injector::Env::OversubscribeMaxSleepUs))
    s.oversub_max_sleep_ns = 1000L * std::max(1, std::atoi(cap));
}

// The run's events may take SCALEFUZZ_TRACE_CAP_MB MiB in all (default
// 2048), shared equally by the ranks (at least 1 MiB each): a hang that
// spins in MPI calls the recorder cannot fold must not fill the disk or the
// analysis' memory.
void set_trace_cap(State& s, const std::string& note_path) {
  std::uint64_t run_mib = 2048;
  if (const char* v = injector::env_value(injector::Env::TraceCapMb)) {
    char* end = nullptr;
    unsigned long long n = std::strtoull(v, &end, 10);
    if (end != v && *end == '\0' && n > 0) run_mib = n;
    else warn("SCALEFUZZ_TRACE_CAP_MB=%s is not a positive integer; using 2048", v);
  }
  std::uint64_t rank_bytes = std::max<std::uint64_t>(run_mib * (1ull << 20) / static_cast<std::uint64_t>(s.size), 1ull << 20);
  std::uint64_t records = rank_bytes / sizeof(trace::Event);
  char note[256];
  std::snprintf(note, sizeof note,
                "events: size cap reached after %llu records (%llu MiB per rank: SCALEFUZZ_TRACE_CAP_MB=%llu over %d "
                "ranks); later calls are not in the trace, the features, Markov model and live state still count them\n",
                static_cast<unsigned long long>(records), static_cast<unsigned long long>(rank_bytes >> 20),
                static_cast<unsigned long long>(run_mib), s.size);
  s.events.set_cap(records, note_path.c_str(), note);
}

bool open_files(State& s, const char* dir) {
  s.ranks_dir = std::string(dir) + "/ranks";
  if (!make_dirs(s.ranks_dir)) {
    warn("cannot create %s: %s; recording disabled", s.ranks_dir.c_str(), std::strerror(errno));
    return false;
  }
  const char* run_id = injector::env_value(injector::Env::RunId);
  std::int64_t pid = ::getpid();
  auto header = [&](trace::FileKind k) {
    return trace::make_header(k, s.rank, s.size, trace::record_size_of(k), s.start_ns, pid, run_id);
  };
  auto path = [&](const char* ext) { return s.ranks_dir + "/" + std::to_string(s.rank) + "." + ext; };
  bool ok = s.events.open(path("events").c_str(), header(trace::FileKind::Events)) &&
            s.sites_file.open(path("sites").c_str(), header(trace::FileKind::CallSites), sizeof(trace::CallSite),
                              kSiteCapacity) &&
            s.features_file.open(path("features").c_str(), header(trace::FileKind::Features),
                                 sizeof(trace::SiteFeature), kSiteCapacity) &&
            s.markov_file.open(path("markov").c_str(), header(trace::FileKind::Markov), sizeof(trace::MarkovEdge),
                               kMarkovCapacity) &&
            s.live_file.open(path("live").c_str(), header(trace::FileKind::Live), sizeof(trace::LiveState), 1);
  if (!ok) {
    warn("cannot create the trace files in %s: %s; recording disabled", s.ranks_dir.c_str(), std::strerror(errno));
    return false;
  }
  set_trace_cap(s, path("capped"));
  s.sites.file_records = static_cast<trace::CallSite*>(s.sites_file.records());
  s.sites.file_capacity = kSiteCapacity;
  s.features = static_cast<trace::SiteFeature*>(s.features_file.records());
  s.markov = static_cast<trace::MarkovEdge*>(s.markov_file.records());
  s.markov_capacity = kMarkovCapacity;
  s.markov_into.assign(kSiteCapacity, 0);
  s.live = static_cast<trace::LiveState*>(s.live_file.records());
  s.live->current_seq = 0;
  open_usage_files(s.ranks_dir.c_str(), s.rank);
  install_signal_handlers(s.ranks_dir.c_str(), s.rank);
  return true;
}

void setup(const Call& c) {
  auto* s = new State();
  g_state = s;
  PMPI_Comm_rank(MPI_COMM_WORLD, &s->rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &s->size);
  int level = MPI_THREAD_SINGLE;
  if (c.provided != nullptr)
    level = *c.provided;
  else
    PMPI_Query_thread(&level);
  s->threaded = level == MPI_THREAD_MULTIPLE;
  init_clock();
  s->events.set_threaded(s->threaded);
  s->start_ns = now_ns();
  s->exe_path = exe_path();
  const auto [self_begin, self_end] = module_range(reinterpret_cast<std::uintptr_t>(&handle_init));
  s->self_begin = self_begin;
  s->self_end = self_end;
  setup_world_comms();
  decide_oversubscription(*s);

  const char* dir = injector::env_value(injector::Env::RunDir);
  if (dir != nullptr && dir[0] != '\0') {
    int depth = 8;
    if (const char* d = injector::env_value(injector::Env::StackDepth)) depth = std::atoi(d);
    s->sites.init(depth);
    s->fold_polls = injector::env_on_unless_zero(injector::Env::FoldPolls);
    s->recording = open_files(*s, dir);
    if (s->recording) {
      // Page population of the events file happens on a helper thread
      // (SCALEFUZZ_PREFAULT=0: synchronously, in the recording thread).
      if (injector::env_on_unless_zero(injector::Env::Prefault)) s->events.start_prefault(4);
      write_modules();
      install_error_handler();
      decisions_open(*s, s->ranks_dir + "/" + std::to_string(s->rank) + ".decisions");
      replay_start(*s);
      alloc_log_start((s->ranks_dir + "/" + std::to_string(s->rank) + ".allocs").c_str(),
                      trace::make_header(trace::FileKind::Allocs, s->rank, s->size,
                                         trace::record_size_of(trace::FileKind::Allocs), s->start_ns, ::getpid(),
                                         injector::env_value(injector::Env::RunId)),
                      s->start_ns);
    }
  }
}
}  // namespace

void install_noise_hooks(const NoiseHooks* hooks) {
  if (hooks != nullptr) g_hooks = *hooks;
  g_hooks_set = hooks != nullptr;
}

void write_modules() {
  State& s = *g_state;
  s.module_ranges.clear();
  std::string file = s.ranks_dir + "/" + std::to_string(s.rank) + ".modules";
  std::string tmp = file + ".tmp";
  FILE* out = std::fopen(tmp.c_str(), "w");
  ModuleWriter w{out, &s};
  dl_iterate_phdr(module_cb, &w);
  if (out != nullptr) {
    std::fclose(out);
    std::rename(tmp.c_str(), file.c_str());  // readers never see a half-written list
  }
}

std::pair<std::uintptr_t, std::uintptr_t> module_range(std::uintptr_t address) {
  ModuleFinder f{address};
  dl_iterate_phdr(module_cb_find, &f);
  return {f.begin, f.end};
}

bool address_known(std::uintptr_t a) {
  for (const auto& [b, e] : g_state->module_ranges)
    if (a >= b && a < e) return true;
  return false;
}

SCALEFUZZ_HANDLER(init) {
  (void)nb;
  std::uint64_t t0 = now_ns();
  // A noise send thread needs MPI_THREAD_MULTIPLE whatever the application
  // asked for (argc/argv may be null since MPI-2; MPICH takes none from them).
  int level = noise_required_thread_level();
  int granted = MPI_THREAD_SINGLE;
  int rc = level < 0 ? call() : PMPI_Init_thread(nullptr, nullptr, level, c.provided != nullptr ? c.provided : &granted);
  if (rc != MPI_SUCCESS || g_state != nullptr) return rc;
  setup(c);
  // Zero-buffer mode: the noise knob zero_buffer (the recorder owns the send wrappers).
  if (const char* zb = std::getenv(noise::find_knob("zero_buffer")->env.data())) g_zero_buffer = zb[0] == '1';
  if (g_state->recording) setup_receive_guard(g_state->ranks_dir.c_str(), g_state->rank, level < 0 && !g_state->threaded);
  g_icoll_receive_sums = g_state->recording && g_send_checksums && level < 0 && !g_state->threaded;
  g_enabled = true;
  g_recording = g_state->recording;
  noise_start();
  stall_start(g_state->rank);
  if (g_state->recording) {
    trace::Event e = blank_event();
    e.comm = trace::kCommWorld;
    Active a = begin_call(c, e, 0);
    if (a.ev != nullptr) a.ev->t_enter_ns = t0;
    end_call(a, rc, 0);
  }
  return rc;
}

namespace {
// Format 3: a finished rank's events file packed, its Markov table dense
// (unless SCALEFUZZ_TRACE_ENCODING=raw). Each file is replaced atomically, so
// a rank killed meanwhile leaves valid raw files.
void pack_files(State& s) {
  const char* encoding = injector::env_value(injector::Env::TraceEncoding);
  if (encoding != nullptr && std::strcmp(encoding, "raw") == 0) return;
  if (encoding != nullptr && *encoding != '\0' && std::strcmp(encoding, "packed") != 0)
    warn("SCALEFUZZ_TRACE_ENCODING=%s is neither packed nor raw; using packed", encoding);
  auto path = [&](const char* ext) { return s.ranks_dir + "/" + std::to_string(s.rank) + "." + ext; };
  if (!s.events.pack_into(path("events").c_str()))
    warn("cannot pack %s: %s; the raw events file is kept", path("events").c_str(), std::strerror(errno));
  auto used_edge = [](const void* r) { return static_cast<const trace::MarkovEdge*>(r)->count != 0; };
  if (!s.markov_file.rewrite_kept(path("markov").c_str(), used_edge))
    warn("cannot rewrite %s: %s; the table is kept", path("markov").c_str(), std::strerror(errno));
}
}  // namespace

SCALEFUZZ_HANDLER(finalize) {
  (void)nb;
  State& s = *g_state;
  noise_stop();
  Active a;
  if (s.recording) {
    trace::Event e = blank_event();
    e.comm = trace::kCommWorld;
    a = begin_call(c, e, 0);
  }
  if (s.oversubscribe) {
    // MPI_Finalize synchronizes and would spin: meet the others politely first.
    MPI_Request r = MPI_REQUEST_NULL;
    if (PMPI_Ibarrier(MPI_COMM_WORLD, &r) == MPI_SUCCESS) poll_request(&r, MPI_STATUS_IGNORE);
  }
  release_receive_guard(0);  // the application may use any buffer after MPI_Finalize
  int rc = call();
  g_enabled = false;
  g_recording = false;
  if (s.recording) {
    end_call(a, rc, 0);
    replay_finalize();
    decisions_close();
    {
      LiveWrite w;
      s.live->finalized = 1;
    }
    // Shrink the preallocated files to what was written.
    alloc_log_stop();
    s.events.stop_prefault();
    s.events.truncate_to_used();
    s.sites_file.truncate_to(s.sites.size());
    s.features_file.truncate_to(s.sites.size());
    pack_files(s);
    if (s.events.capped())
      std::fprintf(stderr, "scalefuzz: rank %d: the trace reached its size cap (see %s/%d.capped)\n", s.rank,
                   s.ranks_dir.c_str(), s.rank);
    if (s.stack_cache_mismatches != 0)
      std::fprintf(stderr,
                   "scalefuzz: rank %d: the call-site cache disagreed with a stack walk; it was switched off "
                   "(SCALEFUZZ_STACK_CACHE=0 avoids it)\n",
                   s.rank);
  }
  return rc;
}

SCALEFUZZ_HANDLER(abort) {
  (void)nb;
  State& s = *g_state;
  if (s.recording) {
    trace::Event e = blank_event();
    CommInfo* ci = comm_info(c.comm);
    e.comm = ci != nullptr ? ci->id : trace::kCommNull;
    e.count = c.scount;  // the error code: the harness reports it (mpi-abort) whatever mpiexec's exit code
    begin_call(c, e, 0);  // never completed: MPI_Abort does not return
  }
  return call();
}

}  // namespace scalefuzz::inject
