// The noise modes at run time: decides each send's delay, hands delayed sends
// to the send thread, detects epochs at global collectives, writes ninja/.
#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>

#include "config.hpp"
#include "handlers.hpp"
#include "hooks.hpp"
#include "model.hpp"
#include "oversub.hpp"
#include "record.hpp"
#include "scalefuzz/trace/ops.hpp"
#include "sender.hpp"

namespace scalefuzz::inject {

namespace {
using noise::Config;
using noise::Mode;
namespace ops = trace::ops;

std::uint64_t realtime_ns() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

struct Runtime {
  Config cfg;
  int rank = 0, size = 1;
  noise::Sender sender;
  bool sender_running = false;
  std::mutex mu;  // decisions below; never held across a PMPI call
  noise::Rng rng{0, 0};
  std::unique_ptr<noise::VirtualBufferQueue> vbq;
  noise::DueOrder order;
  noise::SendSetAnalyzer analyzer;
  noise::DeferredEpochs epochs;  // system: epoch detection, batched
  noise::SendSetTracker tracker;
  std::uint64_t global_collectives = 0;  // application: index of the next one
  noise::Analysis analysis;      // system: being built; application: loaded
  std::vector<bool> victims;     // application: the world ranks whose incoming unsafe sends are delayed
  std::uint64_t min_injected = 0;
  std::atomic<std::uint64_t> sends{0}, recvs{0};
  bool count_recvs = false;      // receive counts exist only while recording
  FILE* delays = nullptr;
};
Runtime* g_rt = nullptr;

// Time this thread spent blocked in its own delayed blocking sends: send
// intervals are measured without it, or a delayed send would split its own
// send set from the next send.
thread_local std::uint64_t tl_blocked_ns = 0;

// System noise's VBQ as this thread sees it: without the holds of its
// nonblocking sends' short delays (model.hpp HeldVbqClock).
thread_local noise::HeldVbqClock tl_vbq_clock;

void busy_wait(std::uint64_t ns) {
  std::uint64_t end = realtime_ns() + ns;
  while (realtime_ns() < end) __builtin_ia32_pause();
}

std::uint32_t comm_id(MPI_Comm comm) {
  StateLock lock;
  CommInfo* ci = comm_info(comm);
  return ci != nullptr ? ci->id : trace::kCommNull;
}

// The smallest delay system mode can inject when it injected none: one full
// packet through Formula 1. Send sets split on intervals longer than D_m.
// Never below the send thread's own overhead: the reference implementation
// floors its set-splitting interval at NINJ_FC_THREAD_OVERHEAD_SEC = 30 us
// (PRUNERS/NINJA src/ninj_fc.cpp), or every gap a delayed send leaves would
// split a send set.
constexpr std::uint64_t kSendThreadOverheadNs = 30000;
std::uint64_t min_noise(const Runtime& rt) {
  std::uint64_t d = rt.min_injected;
  if (d == 0) {
    std::vector<std::uint64_t> one{rt.cfg.vbq.packet_size};
    d = static_cast<std::uint64_t>(noise::formula1(one, 1, rt.cfg.vbq)) + 1;
  }
  return std::max(d, kSendThreadOverheadNs);
}

// The world rank of a send's destination (-1 when unknown).
int world_dest(const SendIssue& s) {
  StateLock lock;
  return world_peer(comm_info(s.comm), s.dest);
}

// The delay this send gets from the mode, in ns (0 = none).
// `now` (real time) drives the VBQ, less this thread's holds (tl_vbq_clock;
// a VBQ shared by several sending threads then sees times slightly out of
// order, which only makes it drain a little later); `app_now` the send-set
// timelines.
std::uint64_t decide(Runtime& rt, const SendIssue& s, std::uint64_t now, std::uint64_t app_now) {
  std::lock_guard<std::mutex> lock(rt.mu);
  switch (rt.cfg.mode) {
    case Mode::Random:
      return noise::random_delay(rt.rng, rt.cfg.probability, rt.cfg.delay_ns);
    case Mode::System: {
      std::uint64_t bytes = static_cast<std::uint64_t>(type_bytes(s.type, s.count));
      const std::uint64_t d = tl_vbq_clock.offer(*rt.vbq, now, bytes);
      rt.epochs.send({s.tag, comm_id(s.comm)}, app_now);
      if (d > 0 && (rt.min_injected == 0 || d < rt.min_injected)) rt.min_injected = d;
      return d;
    }
    case Mode::Application: {  // Formula 2's S_a is this run's: the analysis holds unscaled sums
      // Only sends to a victim, never to oneself (the reference's filter
      // `is_victim_dest != nin_my_rank` compares a flag to a rank; this is
      // what it means to do).
      const int to = world_dest(s);
      if (to == rt.rank || to < 0 || static_cast<std::size_t>(to) >= rt.victims.size() ||
          !rt.victims[static_cast<std::size_t>(to)])
        return 0;
      return static_cast<std::uint64_t>(static_cast<double>(rt.tracker.on_send(rt.analysis, {s.tag, comm_id(s.comm)}, app_now)) *
                                        rt.cfg.app_scale);
    }
    default:
      return 0;
  }
}

// Synchronous: MPI_Ssend/Issend, or any standard send in zero-buffer mode
// (the recorder's wrappers turn those into Ssend/Issend when not deferred).
bool synchronous(const SendIssue& s) {
  return s.op == ops::Ssend || s.op == ops::Issend || (g_zero_buffer && (s.op == ops::Send || s.op == ops::Isend));
}

int send_init(const SendIssue& s, const void* payload, MPI_Request* req) {
  void* buf = const_cast<void*>(payload);
  if (synchronous(s)) return PMPI_Ssend_init(buf, s.count, s.type, s.dest, s.tag, s.comm, req);
  if (s.op == ops::Rsend || s.op == ops::Irsend) return PMPI_Rsend_init(buf, s.count, s.type, s.dest, s.tag, s.comm, req);
  return PMPI_Send_init(buf, s.count, s.type, s.dest, s.tag, s.comm, req);
}

// The reference's eager limit for copying a delayed send's payload
// (PRUNERS/NINJA src/ninj.cpp: NIN_EAGER_LIMIT (64000) bytes).
constexpr std::int64_t kEagerCopyLimit = 64000;

// A copy of a delayed nonblocking standard-mode send's payload when it is
// under the eager limit and contiguous (paper 5.1: such a send is reported
// complete at once); none for synchronous and ready sends (their completion
// says something about the receiver), for zero-buffer mode, and for
// non-contiguous data.
std::unique_ptr<unsigned char[]> eager_copy(const SendIssue& s) {
  if (s.blocking || s.op != ops::Isend || synchronous(s) || s.count <= 0) return nullptr;
  const TypeInfo type = type_info(s.type);
  const std::int64_t bytes = static_cast<std::int64_t>(type.size) * s.count;
  if (!type.contiguous || bytes <= 0 || bytes > kEagerCopyLimit) return nullptr;
  auto copy = std::make_unique<unsigned char[]>(static_cast<std::size_t>(bytes));
  std::memcpy(copy.get(), s.buf, static_cast<std::size_t>(bytes));
  return copy;
}

void log_delay(Runtime& rt, const SendIssue& s, std::uint64_t delay) {
  if (rt.delays == nullptr) return;
  std::uint64_t seq = tl_current != nullptr ? tl_current->seq : 0;
  const int world = world_dest(s);
  std::fprintf(rt.delays, "%llu %d %d %u %lld %llu\n", static_cast<unsigned long long>(seq), world, s.tag,
               comm_id(s.comm), static_cast<long long>(type_bytes(s.type, s.count)),
               static_cast<unsigned long long>(delay));
}

// A delay shorter than the send thread's own overhead is waited out by the
// calling thread, which then issues the send itself. The reference
// implementation puts that overhead at NINJ_FC_THREAD_OVERHEAD_SEC = 30 us
// (PRUNERS/NINJA src/ninj_fc.cpp; kSendThreadOverheadNs): a send thread cannot
// resolve a shorter delay, and handing the send over costs a thread wakeup
// per send, on oversubscribed cores a scheduling slice (system noise delays
// most sends of a burst by a few us: handing them over made the textbook
// race's safe twin 2.8x slower at 8 ranks on 2 cores, waiting here 1.04x).
// The send leaves at its due time either way; the caller is held for those
// microseconds, which the send-set timelines discount like a blocked send.
bool send_after_short_delay(Runtime& rt, const SendIssue& s, std::uint64_t now, std::uint64_t due, MPI_Request* req,
                            int* rc) {
  log_delay(rt, s, due - now);
  while (realtime_ns() < due) __builtin_ia32_pause();
  void* buf = const_cast<void*>(s.buf);
  MPI_Request local = MPI_REQUEST_NULL;
  MPI_Request* r = s.blocking ? &local : req;
  if (synchronous(s)) *rc = PMPI_Issend(buf, s.count, s.type, s.dest, s.tag, s.comm, r);
  else if (s.op == ops::Rsend || s.op == ops::Irsend) *rc = PMPI_Irsend(buf, s.count, s.type, s.dest, s.tag, s.comm, r);
  else *rc = PMPI_Isend(buf, s.count, s.type, s.dest, s.tag, s.comm, r);
  if (!s.blocking) tl_vbq_clock.held(realtime_ns() - now);
  if (*rc == MPI_SUCCESS && s.blocking)
    *rc = oversubscribed() ? poll_request(&local, MPI_STATUS_IGNORE) : PMPI_Wait(&local, MPI_STATUS_IGNORE);
  tl_blocked_ns += realtime_ns() - now;
  return true;
}

bool issue_send(void* ctx, const SendIssue& s, MPI_Request* req, int* rc) {
  auto& rt = *static_cast<Runtime*>(ctx);
  rt.sends.fetch_add(1, std::memory_order_relaxed);
  if (s.dest == MPI_PROC_NULL) return false;
  if (s.op == ops::Bsend || s.op == ops::Ibsend || s.op == ops::Sendrecv || s.op == ops::Sendrecv_replace) {
    // Never deferred: buffered sends may reuse their buffer at once, Sendrecv
    // receives too. They wait for the deferred sends of their channel so as
    // not to overtake them.
    for (timespec ts{0, 20000}; rt.sender.unstarted({s.dest, s.comm});) nanosleep(&ts, nullptr);
    return false;
  }
  std::uint64_t now = realtime_ns();
  std::uint64_t delay = decide(rt, s, now, now - tl_blocked_ns);
  std::pair<int, MPI_Comm> channel{s.dest, s.comm};
  std::uint64_t due;
  bool behind;
  {
    std::lock_guard<std::mutex> lock(rt.mu);
    behind = rt.sender.unstarted(channel);
    if (delay == 0 && !behind) return false;
    due = rt.order.due(s.dest, comm_id(s.comm), now + delay);
  }
  if (!behind && due - now < kSendThreadOverheadNs) return send_after_short_delay(rt, s, now, due, req, rc);
  MPI_Request persistent = MPI_REQUEST_NULL;
  std::unique_ptr<unsigned char[]> copy = eager_copy(s);
  *rc = send_init(s, copy ? copy.get() : s.buf, &persistent);
  if (*rc != MPI_SUCCESS) return true;
  log_delay(rt, s, due - now);
  if (copy) {
    // Paper 5.1: the payload is copied and the send reported complete now,
    // as MPI completes an eager send before it is delivered; the send
    // thread keeps the copy until the deferred send is done. The
    // application gets a send to MPI_PROC_NULL, complete at once (MPICH
    // 4.0.2 asserts in MPI_Waitall on a generalized request completed
    // before it was first tested).
    *rc = PMPI_Isend(nullptr, 0, MPI_BYTE, MPI_PROC_NULL, s.tag, s.comm, req);
    if (*rc != MPI_SUCCESS) {
      PMPI_Request_free(&persistent);
      return true;
    }
    rt.sender.defer(persistent, due, channel, MPI_REQUEST_NULL, nullptr, nullptr, std::move(copy));
    return true;
  }
  if (!s.blocking) {
    auto* state = new noise::GreqState();
    *rc = PMPI_Grequest_start(noise::greq_query, noise::greq_free, noise::greq_cancel, state, req);
    if (*rc != MPI_SUCCESS) {
      delete state;
      PMPI_Request_free(&persistent);
      return true;
    }
    rt.sender.defer(persistent, due, channel, *req, state, nullptr);
    return true;
  }
  // Blocking send (paper 5.2): the send thread starts it; this thread waits
  // without holding any lock, so a receive the peer needs first cannot be
  // stuck behind it.
  auto done = std::make_shared<noise::BlockingDone>();
  rt.sender.defer(persistent, due, channel, MPI_REQUEST_NULL, nullptr, done);
  std::uint64_t nap = 1000;
  while (!done->done.load(std::memory_order_acquire)) {
    timespec ts{0, static_cast<long>(nap)};
    nanosleep(&ts, nullptr);
    if (nap < 50000) nap *= 2;
  }
  *rc = done->rc;
  tl_blocked_ns += realtime_ns() - now;
  return true;
}

bool is_global(MPI_Comm comm, int world) {
  int inter = 0, n = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) return false;
  return PMPI_Comm_size(comm, &n) == MPI_SUCCESS && n == world;
}

// Sums `counts` element-wise over `comm`, completed like the application's
// own blocking calls (test-and-sleep when ranks outnumber cores).
bool sum_over(std::vector<unsigned long long>& counts, std::vector<unsigned long long>& global, MPI_Comm comm) {
  global.assign(counts.size(), 0);
  const int n = static_cast<int>(counts.size());
  if (!oversubscribed())
    return PMPI_Allreduce(counts.data(), global.data(), n, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm) == MPI_SUCCESS;
  MPI_Request r = MPI_REQUEST_NULL;
  if (PMPI_Iallreduce(counts.data(), global.data(), n, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm, &r) != MPI_SUCCESS)
    return false;
  return poll_request(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS;
}

// System mode's epoch log is summed across ranks (one Allreduce per batch
// of global collectives) and folded into the analysis.
void resolve_epochs(Runtime& rt, MPI_Comm comm) {
  std::vector<unsigned long long> global;
  std::vector<unsigned long long> local = rt.epochs.pending_counts();
  // Without recorded receive counts every global collective ends an epoch.
  if (rt.count_recvs && !local.empty() && !sum_over(local, global, comm)) global.clear();
  std::lock_guard<std::mutex> lock(rt.mu);
  rt.epochs.resolve(global, rt.analyzer, min_noise(rt), rt.analysis);
}

// Epoch detection (4.2.1) at every global collective: every rank enters the
// same ones in the same order. System mode logs the counts there and checks
// them in batches (DeferredEpochs); application mode starts its epochs where
// the system run found them, with no communication of its own.
void before_collective(void* ctx, std::uint16_t, MPI_Comm comm) {
  auto& rt = *static_cast<Runtime*>(ctx);
  if (rt.cfg.mode != Mode::System && rt.cfg.mode != Mode::Application) return;
  if (!is_global(comm, rt.size)) return;
  if (rt.cfg.mode == Mode::Application) {
    const std::uint64_t k = rt.global_collectives++;
    const auto& ends = rt.analysis.epoch_ends_at;
    if (std::binary_search(ends.begin(), ends.end(), k)) {
      std::lock_guard<std::mutex> lock(rt.mu);
      rt.tracker.new_epoch();
    }
    return;
  }
  bool full;
  {
    std::lock_guard<std::mutex> lock(rt.mu);
    full = rt.epochs.mark(rt.sends.load(), rt.recvs.load());
  }
  if (full) resolve_epochs(rt, comm);
}

void after_call(void* ctx, std::uint16_t, std::uint8_t cls) {
  auto& rt = *static_cast<Runtime*>(ctx);
  auto c = static_cast<trace::OpClass>(cls);
  const std::uint64_t busy = rt.cfg.mode == Mode::Local ? rt.cfg.delay_ns : rt.cfg.overhead_ns;
  if (busy == 0) return;
  // The paper's printf-after-every-call tool overhead: sends, receives and matching functions.
  switch (c) {
    case trace::OpClass::Send: case trace::OpClass::Recv: case trace::OpClass::Sendrecv: case trace::OpClass::Isend:
    case trace::OpClass::Irecv: case trace::OpClass::Start: case trace::OpClass::Completion: case trace::OpClass::Probe:
      busy_wait(busy);
      break;
    default:
      break;
  }
}

// One-sided operations and synchronization calls (issue 33): random mode
// delays each with its probability and delay (a sleep on the calling thread:
// an RMA operation cannot be handed to the send thread), local mode busies
// the CPU for its delay before each. System and application modes model
// message queues (NINJA) and leave one-sided calls alone.
void before_rma(void* ctx, std::uint16_t, std::uint8_t) {
  auto& rt = *static_cast<Runtime*>(ctx);
  if (rt.cfg.mode == Mode::Local) return busy_wait(rt.cfg.delay_ns);
  if (rt.cfg.mode != Mode::Random) return;
  std::uint64_t d;
  {
    std::lock_guard<std::mutex> lock(rt.mu);
    d = noise::random_delay(rt.rng, rt.cfg.probability, rt.cfg.delay_ns);
  }
  if (d == 0) return;
  timespec ts{static_cast<time_t>(d / 1000000000u), static_cast<long>(d % 1000000000u)};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

void on_receive(void* ctx) { static_cast<Runtime*>(ctx)->recvs.fetch_add(1, std::memory_order_relaxed); }

std::string ninja_dir(const std::string& run_dir) { return run_dir + "/ninja"; }

bool load_analysis(Runtime& rt) {
  if (rt.cfg.analysis_dir.empty()) {
    std::fprintf(stderr,
                 "scalefuzz noise: application mode needs SCALEFUZZ_NOISE_ANALYSIS (a system-centric run's directory); "
                 "running without noise\n");
    return false;
  }
  std::string path = ninja_dir(rt.cfg.analysis_dir) + "/" + std::to_string(rt.rank) + ".analysis";
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "scalefuzz noise: cannot read %s (SCALEFUZZ_NOISE_ANALYSIS=%s); running without noise\n",
                 path.c_str(), rt.cfg.analysis_dir.c_str());
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  std::string error;
  auto a = noise::parse_analysis(text.str(), error);
  if (!a) {
    std::fprintf(stderr, "scalefuzz noise: %s: %s; running without noise\n", path.c_str(), error.c_str());
    return false;
  }
  rt.analysis = std::move(*a);
  // Potential races the harness found in the system run's trace (vector
  // clocks, detectors/races): their message ids are unsafe too.
  std::ifstream potential(ninja_dir(rt.cfg.analysis_dir) + "/potential.unsafe");
  std::string key;
  noise::MsgId id;
  for (std::string line; std::getline(potential, line);) {
    std::istringstream ls(line);
    if (!(ls >> key >> id.first >> id.second) || key != "unsafe") continue;
    auto& unsafe = rt.analysis.unsafe;
    if (std::find(unsafe.begin(), unsafe.end(), id) == unsafe.end()) unsafe.push_back(id);
  }
  return true;
}

void write_file(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp";
  std::ofstream out(tmp);
  out << text;
  out.close();
  if (out) std::rename(tmp.c_str(), path.c_str());  // readers never see half a file
}
}  // namespace

int noise_required_thread_level() {
  noise::Config c = noise::read_config();
  bool thread = c.mode == Mode::Random || c.mode == Mode::System || c.mode == Mode::Application;
  return thread ? MPI_THREAD_MULTIPLE : -1;
}

void noise_start() {
  Config cfg = noise::read_config();
  if (cfg.mode == Mode::None && cfg.overhead_ns == 0) return;
  auto* rt = new Runtime();
  rt->cfg = cfg;
  rt->rank = g_state->rank;
  rt->size = g_state->size;
  rt->rng = noise::Rng(cfg.seed, rt->rank);
  rt->count_recvs = g_state->recording;
  rt->analysis.rank = rt->rank;
  rt->analysis.size = rt->size;
  if (cfg.mode == Mode::System) rt->vbq = std::make_unique<noise::VirtualBufferQueue>(cfg.vbq);
  if (cfg.mode == Mode::Application && !load_analysis(*rt)) {
    delete rt;
    return;
  }
  if (cfg.mode == Mode::Application) rt->victims = noise::victim_ranks(cfg.seed, rt->size, cfg.victims);
  bool delaying = cfg.mode != Mode::Local && cfg.mode != Mode::None;
  if (delaying) {
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    if (level != MPI_THREAD_MULTIPLE) {
      std::fprintf(stderr, "scalefuzz noise: MPI_THREAD_MULTIPLE not granted; no noise\n");
      delete rt;
      return;
    }
    if (!cfg.run_dir.empty()) {
      std::string dir = ninja_dir(cfg.run_dir);
      if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
        std::fprintf(stderr, "scalefuzz noise: cannot create %s: %s\n", dir.c_str(), std::strerror(errno));
      std::string path = dir + "/" + std::to_string(rt->rank) + ".delays";
      rt->delays = std::fopen(path.c_str(), "w");
      if (rt->delays != nullptr) setvbuf(rt->delays, nullptr, _IOLBF, 0);  // a crash keeps every line
    }
    rt->sender.start();
    rt->sender_running = true;
  }
  g_rt = rt;
  NoiseHooks h;
  h.ctx = rt;
  if (delaying) h.issue_send = issue_send;
  // No before_completion: a deferred nonblocking send is a generalized
  // request that completes only when the send thread has finished it.
  h.before_collective = before_collective;
  h.after_call = after_call;
  h.before_rma = before_rma;
  h.on_receive = on_receive;
  install_noise_hooks(&h);
}

void noise_stop() {
  Runtime* rt = g_rt;
  if (rt == nullptr) return;
  install_noise_hooks(nullptr);
  if (rt->sender_running) rt->sender.stop();
  if (rt->delays != nullptr) std::fclose(rt->delays);
  rt->delays = nullptr;
  if (rt->cfg.mode == Mode::System && !rt->cfg.run_dir.empty()) {
    // The last, partial batch: every rank has the same number pending.
    resolve_epochs(*rt, MPI_COMM_WORLD);
    // MPI_Finalize is the last global synchronization: it ends the last epoch.
    rt->analyzer.end_epoch(min_noise(*rt), 1.0, rt->analysis);
    rt->analysis.min_noise = min_noise(*rt);
    noise::keep_usual_sets(rt->analysis);
    write_file(ninja_dir(rt->cfg.run_dir) + "/" + std::to_string(rt->rank) + ".analysis",
               noise::format_analysis(rt->analysis));
  }
  g_rt = nullptr;
  delete rt;
}

}  // namespace scalefuzz::inject
