// Runs the scenario programs under the preloaded injector with real mpiexec
// and checks the recorded files with the trace reader.
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "run_helpers.hpp"
#include "scalefuzz/trace/allocs.hpp"
#include "scalefuzz/trace/header.hpp"
#include "scalefuzz/trace/model.hpp"
#include "scalefuzz/trace/ops.hpp"

namespace fs = std::filesystem;
using namespace scalefuzz::trace;
using namespace scalefuzz::inject::testing;
using namespace std::chrono_literals;

namespace {

// Runs `inject_scenarios args` on `n` ranks; recorded when `record` is set.
Result run(const std::string& name, int n, std::vector<std::string> args, bool record,
           std::vector<std::string> env = {}, bool preload_mpiexec = false) {
  const fs::path dir = fresh_dir(name);
  Launch l;
  l.argv = {SCALEFUZZ_MPIEXEC, "-n", std::to_string(n)};
  if (record && !preload_mpiexec) l.argv.insert(l.argv.end(), {"-genv", "LD_PRELOAD", SCALEFUZZ_INJECT_LIB});
  l.argv.push_back(SCALEFUZZ_SCENARIOS);
  l.argv.insert(l.argv.end(), args.begin(), args.end());
  l.env = std::move(env);
  l.env.push_back("MPIEXEC_TIMEOUT=120");
  if (record) l.env.push_back("SCALEFUZZ_RUN_DIR=" + dir.string());
  if (preload_mpiexec) l.env.push_back(std::string("LD_PRELOAD=") + SCALEFUZZ_INJECT_LIB);
  return run_launch(std::move(l), dir, 180s);
}

// Runs `args` bare, then recorded (with `env`) into `rec`: both exit 0 and the
// recorded run prints exactly what the bare one printed. Call it inside
// ASSERT_NO_FATAL_FAILURE.
void run_recorded_like_bare(const std::string& name, int n, const std::vector<std::string>& args, Result& rec,
                            std::vector<std::string> env = {}, bool preload_mpiexec = false) {
  Result bare = run(name + "_bare", n, args, false);
  ASSERT_EQ(bare.rc, 0) << bare.err;
  rec = run(name, n, args, true, std::move(env), preload_mpiexec);
  ASSERT_EQ(rec.rc, 0) << rec.err;
  EXPECT_EQ(rec.out, bare.out);
}

bool is_child(const Event& e) { return (e.flags & kFlagChild) != 0; }
OpClass cls(const Event& e) { return static_cast<OpClass>(e.op_class); }

std::vector<const Event*> find(const RankTrace& rt, std::uint16_t op, bool children = false) {
  std::vector<const Event*> out;
  for (const auto& e : rt.events)
    if (e.op == op && is_child(e) == children) out.push_back(&e);
  return out;
}

// Features and Markov edges recomputed from the event stream must equal the
// recorded ones; the live state must match the final counters.
void check_models_consistent(const RankTrace& rt) {
  std::map<std::uint32_t, std::uint64_t> calls;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> edges;
  std::uint32_t prev = kMarkovStart;
  std::uint64_t top_level = 0;
  for (const auto& e : rt.events) {
    if (is_child(e)) continue;
    top_level += 1 + e.repeats;  // a folded poll stands for 1 + repeats calls
    calls[e.callsite] += 1 + e.repeats;
    ++edges[{prev, e.callsite}];
    if (e.repeats != 0) edges[{e.callsite, e.callsite}] += e.repeats;
    prev = e.callsite;
  }
  ASSERT_EQ(rt.features.size(), rt.sites.size());
  for (std::size_t s = 0; s < rt.features.size(); ++s)
    EXPECT_EQ(rt.features[s].calls, calls[static_cast<std::uint32_t>(s)]) << "rank " << rt.rank << " site " << s;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> recorded;
  std::map<std::uint32_t, std::uint64_t> into;  // Markov edges into each site = calls there
  for (const auto& e : rt.markov.edges) {
    recorded[{e.from, e.to}] = e.count;
    into[e.to] += e.count;
  }
  bool folded = std::any_of(rt.events.begin(), rt.events.end(), [](const Event& e) { return e.repeats != 0; });
  // The order of folded polls that alternate (Test, Iprobe, Test ...) is not in
  // the events: then only the edge counts into each site are comparable.
  if (!folded) {
    EXPECT_EQ(recorded, edges) << "rank " << rt.rank;
  }
  for (const auto& [site, n] : calls) EXPECT_EQ(into[site], n) << "rank " << rt.rank << " site " << site;
  // Bytes sent per site for point-to-point send sites.
  std::map<std::uint32_t, std::uint64_t> sent;
  for (const auto& e : rt.events)
    if (!is_child(e) && (cls(e) == OpClass::Send || cls(e) == OpClass::Isend || cls(e) == OpClass::Sendrecv) &&
        e.peer >= 0)
      sent[e.callsite] += static_cast<std::uint64_t>(e.bytes);
  for (const auto& [site, bytes] : sent) EXPECT_EQ(rt.features[site].bytes_sent, bytes) << "site " << site;
  ASSERT_TRUE(rt.live.has_value());
  EXPECT_EQ(rt.live->finalized, 1);
  EXPECT_EQ(rt.live->in_call, 0);
  EXPECT_EQ(rt.live->calls, top_level);
  EXPECT_EQ(rt.live->npending, 0u);
  EXPECT_EQ(rt.live->current_seq, rt.events.back().seq - 0) << "last record is the Finalize";
  EXPECT_EQ(rt.events.back().op, ops::Finalize);
}

void check_p2p(const RunTrace& run, int n) {
  ASSERT_EQ(run.ranks.size(), static_cast<std::size_t>(n));
  for (const auto& rt : run.ranks) {
    SCOPED_TRACE("rank " + std::to_string(rt.rank));
    ASSERT_GE(rt.rank, 0);
    EXPECT_TRUE(rt.warnings.empty()) << rt.warnings.front();
    EXPECT_FALSE(rt.last_event_in_progress);
    int right = (rt.rank + 1) % n, left = (rt.rank - 1 + n) % n;
    // 1. blocking ring
    auto ring = find(rt, ops::Send);
    auto ring_send = std::count_if(ring.begin(), ring.end(), [&](const Event* e) { return e->tag == 1; });
    EXPECT_EQ(ring_send, 1);
    for (const Event* e : ring)
      if (e->tag == 1) {
        EXPECT_EQ(e->peer, right);
        EXPECT_EQ(e->bytes, 4);
      }
    // 2. nonblocking: the Irecv's RequestDone carries the status
    auto irecv = find(rt, ops::Irecv);
    const Event* ir2 = nullptr;
    for (const Event* e : irecv)
      if (e->tag == 2) ir2 = e;
    ASSERT_NE(ir2, nullptr);
    EXPECT_EQ(ir2->peer, left);
    EXPECT_EQ(ir2->bytes, 64);
    bool done = false;
    for (const auto& e : rt.events)
      if (cls(e) == OpClass::RequestDone && e.request == ir2->request) {
        done = true;
        EXPECT_EQ(e.status_source, left);
        EXPECT_EQ(e.status_bytes, 64);
      }
    EXPECT_TRUE(done);
    // 3. persistent: 3 Startall children + 1 Start per request, with its peer
    auto sinit = find(rt, ops::Send_init);
    ASSERT_EQ(sinit.size(), 1u);
    EXPECT_TRUE(sinit[0]->flags & kFlagPersistent);
    int starts = 0;
    for (const auto& e : rt.events)
      if (cls(e) == OpClass::Start && e.request == sinit[0]->request) {
        ++starts;
        EXPECT_EQ(e.peer, right);
        EXPECT_EQ(e.bytes, 16);
        EXPECT_TRUE(e.flags & kFlagPersistent);
      }
    EXPECT_EQ(starts, 4);
    // 4. Sendrecv: send half + child receive half
    auto sr = find(rt, ops::Sendrecv);
    ASSERT_EQ(sr.size(), 1u);
    EXPECT_EQ(sr[0]->peer, right);
    const Event& half = *(sr[0] + 1);
    EXPECT_TRUE(is_child(half));
    EXPECT_EQ(cls(half), OpClass::Recv);
    EXPECT_EQ(half.peer, left);
    EXPECT_EQ(half.status_source, left);
    EXPECT_EQ(half.status_bytes, 8);
    // all records complete, seq dense
    for (std::size_t i = 0; i < rt.events.size(); ++i) {
      EXPECT_EQ(rt.events[i].seq, i + 1);
      EXPECT_NE(rt.events[i].t_exit_ns, 0u);
      EXPECT_EQ(rt.events[i].error, 0);
    }
    check_models_consistent(rt);
  }
  // rank 0: wildcard probes resolved, Mprobe/Mrecv, Test loop, Waitany/some
  const RankTrace& r0 = run.ranks[0];
  auto probes = find(r0, ops::Probe);
  EXPECT_EQ(probes.size(), static_cast<std::size_t>(n - 1));
  std::set<int> sources;
  for (const Event* p : probes) {
    EXPECT_EQ(p->peer, kAnySource);
    sources.insert(p->status_source);
  }
  EXPECT_EQ(sources.size(), static_cast<std::size_t>(n - 1));
  auto mrecv = find(r0, ops::Mrecv);
  ASSERT_EQ(mrecv.size(), 1u);
  EXPECT_EQ(mrecv[0]->peer, 1);
  EXPECT_EQ(mrecv[0]->tag, 6);
  EXPECT_EQ(mrecv[0]->status_bytes, 12);
  EXPECT_EQ(find(r0, ops::Waitany).size(), 1u);
  if (n > 2) {  // with 2 ranks Waitany gets the only one
    EXPECT_GE(find(r0, ops::Waitsome).size(), 1u);
  }
  auto tests = find(r0, ops::Test);
  ASSERT_GE(tests.size(), 1u);
  EXPECT_FALSE(tests.back()->flags & kFlagTestFailed);
  for (std::size_t i = 0; i + 1 < tests.size(); ++i) EXPECT_TRUE(tests[i]->flags & kFlagTestFailed);
  auto ssend = find(run.ranks[1], ops::Ssend);
  ASSERT_EQ(ssend.size(), 1u);
  EXPECT_TRUE(ssend[0]->flags & kFlagSynchronous);
  // Every message matched: ring n, nonblocking n, persistent 4n, Sendrecv n,
  // wildcard n-1, Mprobe 1, Test/Iprobe 2, Waitany/some n-1.
  Matching m = match_messages(run);
  EXPECT_TRUE(m.unmatched_sends.empty());
  EXPECT_TRUE(m.unmatched_recvs.empty());
  EXPECT_EQ(m.messages.size(), static_cast<std::size_t>(7 * n + 2 * (n - 1) + 3));
  // The same code location has the same stable hash on every rank.
  for (const auto& rt : run.ranks) EXPECT_EQ(rt.sites[0].stable_hash, run.ranks[0].sites[0].stable_hash);
}

}  // namespace

// A test of one scenario program run bare and recorded: its recorded run.
class RecordedProgram {
 protected:
  // Runs scenario `program` on `n` ranks bare, then recorded (with `env`)
  // into `rec` (run_recorded_like_bare() named `name`), and reads the
  // recorded run into `run`. Call it inside ASSERT_NO_FATAL_FAILURE.
  void record_named(const std::string& name, const std::string& program, int n, std::vector<std::string> env = {}) {
    ::run_recorded_like_bare(name, n, {program}, rec, std::move(env));
    if (!::testing::Test::HasFatalFailure()) run = read_run(rec.dir);
  }

  Result rec;
  RunTrace run;
};

class Recorded : public ::testing::Test, protected RecordedProgram {
 protected:
  void record(const std::string& program, int n) { record_named(program, program, n); }
};

// Programs run with SCALEFUZZ_OVERSUBSCRIBE off and on (the parameter).
class Oversubscribed : public ::testing::TestWithParam<const char*>, protected RecordedProgram {
 protected:
  // record() with this test's SCALEFUZZ_OVERSUBSCRIBE.
  void record(const std::string& program, int n) {
    const std::string mode = GetParam();
    record_named(program + "_" + mode, program, n, {"SCALEFUZZ_OVERSUBSCRIBE=" + mode});
  }
};

class P2p : public Oversubscribed {};

TEST_P(P2p, RecordsWhatTheProgramDoesAndOutputIsUnchanged) {
  const int n = 4;
  ASSERT_NO_FATAL_FAILURE(record("p2p", n));
  EXPECT_NE(rec.out.find("p2p checksum"), std::string::npos);
  check_p2p(run, n);
}

INSTANTIATE_TEST_SUITE_P(Oversubscription, P2p, ::testing::Values("off", "on"));

class More : public Oversubscribed {};

// The remaining wrapper families (Sendrecv_replace, Cancel, Improbe/Imrecv,
// Test{all,any,some}, Request_free of an active send, Comm_create,
// Comm_split_type, nonblocking collectives).
TEST_P(More, RemainingFamiliesRecordAndMatch) {
  const int n = 3;
  ASSERT_NO_FATAL_FAILURE(record("more", n));
  for (const auto& rt : run.ranks) {
    SCOPED_TRACE("rank " + std::to_string(rt.rank));
    EXPECT_TRUE(rt.warnings.empty()) << rt.warnings.front();
    int left = (rt.rank - 1 + n) % n;
    // Sendrecv_replace: send half + receive half from the left
    auto srr = find(rt, ops::Sendrecv_replace);
    ASSERT_EQ(srr.size(), 1u);
    EXPECT_EQ((srr[0] + 1)->status_source, left);
    // the cancelled receive is flagged and carries no message
    auto irecvs = find(rt, ops::Irecv);
    ASSERT_GE(irecvs.size(), 1u);
    EXPECT_EQ(irecvs[0]->tag, 999);
    bool cancelled = false;
    for (const auto& e : rt.events)
      if (cls(e) == OpClass::RequestDone && e.request == irecvs[0]->request)
        cancelled = (e.flags & kFlagCancelled) != 0 && e.status_source < 0;
    EXPECT_TRUE(cancelled);
    // Imrecv takes peer/tag/comm from its Improbe
    auto imrecv = find(rt, ops::Imrecv);
    ASSERT_EQ(imrecv.size(), 1u);
    EXPECT_EQ(imrecv[0]->peer, left);
    EXPECT_EQ(imrecv[0]->tag, 21);
    EXPECT_EQ(imrecv[0]->comm, kCommWorld);
    // polling loops end with a successful test
    for (std::uint16_t op : {ops::Testall, ops::Testany, ops::Testsome}) {
      auto v = find(rt, op);
      ASSERT_GE(v.size(), 1u) << op_name(op);
      EXPECT_FALSE(v.back()->flags & kFlagTestFailed) << op_name(op);
    }
    EXPECT_EQ(find(rt, ops::Request_free).size(), 1u);
    auto create = find(rt, ops::Comm_create);
    ASSERT_EQ(create.size(), 1u);
    EXPECT_EQ(create[0]->comm == kCommNull, rt.rank >= 2);
    auto node = find(rt, ops::Comm_split_type);
    ASSERT_EQ(node.size(), 1u);
    EXPECT_EQ(node[0]->comm, find(run.ranks[0], ops::Comm_split_type)[0]->comm);
    EXPECT_EQ(find(rt, ops::Ibcast)[0]->comm, node[0]->comm);
    check_models_consistent(rt);
  }
  EXPECT_EQ(find(run.ranks[0], ops::Comm_create)[0]->comm, find(run.ranks[1], ops::Comm_create)[0]->comm);
  Matching m = match_messages(run);
  // Per rank: replace, Imrecv, Testany pair, Testsome pair, freed Isend -> 5 messages.
  EXPECT_EQ(m.messages.size(), static_cast<std::size_t>(5 * n));
  EXPECT_TRUE(m.unmatched_sends.empty());
  EXPECT_TRUE(m.unmatched_recvs.empty());
}

INSTANTIATE_TEST_SUITE_P(Oversubscription, More, ::testing::Values("off", "on"));

// Issue 19 defect 11: with two threads per rank, MPICH returned one handle for
// both threads' eager Isends; the request map kept only the later one, so the
// earlier stayed listed as pending (in about a third of runs). The recorder's
// own request ids fix it. Each thread also posts 3 Isends per Waitall, which
// leaked deterministically before the fix.
TEST(Threads, LiveStateListsNoPendingRequestAfterEveryWaitall) {
  for (const char* sends : {"1", "3"}) {
    Result rec = run("threads", 2, {"threads", sends}, true);
    ASSERT_EQ(rec.rc, 0) << rec.err;
    RunTrace run = read_run(rec.dir);
    for (const auto& rt : run.ranks) {
      ASSERT_TRUE(rt.live.has_value());
      EXPECT_EQ(rt.live->npending, 0u) << sends << " sends per iteration, rank " << rt.rank;
      EXPECT_EQ(rt.live->pending_dropped, 0u);
    }
  }
}

TEST(Threads, MultipleThreadsRecordEveryCallAndMatch) {
  Result rec = run("threads", 2, {"threads"}, true);
  ASSERT_EQ(rec.rc, 0) << rec.err;
  EXPECT_EQ(rec.out, "threads done\n");
  EXPECT_EQ(rec.err.find("want"), std::string::npos) << rec.err;
  RunTrace run = read_run(rec.dir);
  for (const auto& rt : run.ranks) {
    EXPECT_TRUE(rt.warnings.empty()) << rt.warnings.front();
    EXPECT_EQ(find(rt, ops::Isend).size(), 1000u);
    EXPECT_EQ(find(rt, ops::Waitall).size(), 1000u);
    for (std::size_t i = 0; i < rt.events.size(); ++i) EXPECT_NE(rt.events[i].t_exit_ns, 0u);
    std::uint64_t calls = 0;
    for (const auto& f : rt.features) calls += f.calls;
    ASSERT_TRUE(rt.live.has_value());
    EXPECT_EQ(rt.live->calls, calls);
  }
  Matching m = match_messages(run);
  EXPECT_EQ(m.messages.size(), 2000u);
  EXPECT_TRUE(m.unmatched_sends.empty());
  EXPECT_TRUE(m.unmatched_recvs.empty());
}

// Issue 20: eager Isends completing at once share one MPI handle under MPICH;
// every completion must still name its own request (peer, tag, size).
class Eager : public Oversubscribed {};

TEST_P(Eager, EveryCompletionNamesItsOwnRequest) {
  const int n = 8;
  ASSERT_NO_FATAL_FAILURE(record("eager", n));
  ASSERT_EQ(run.ranks.size(), static_cast<std::size_t>(n));
  for (const auto& rt : run.ranks) {
    SCOPED_TRACE("rank " + std::to_string(rt.rank));
    const int me = rt.rank;
    std::map<std::uint64_t, const Event*> posts;  // request id -> Isend/Irecv/Send_init
    std::map<std::uint64_t, int> starts, completions;
    for (const auto& e : rt.events) {
      if (e.request == 0) continue;
      if (!is_child(e) && (cls(e) == OpClass::Isend || cls(e) == OpClass::Irecv || cls(e) == OpClass::SendInit)) {
        EXPECT_TRUE(posts.emplace(e.request, &e).second) << "request id " << e.request << " posted twice";
      }
      if (cls(e) == OpClass::Start) ++starts[e.request];
    }
    std::vector<std::vector<int>> send_peers_per_call;  // per Wait*/Test* call, peers of its completed sends
    for (std::size_t i = 0; i < rt.events.size(); ++i) {
      const Event& c = rt.events[i];
      if (is_child(c) || cls(c) != OpClass::Completion) continue;
      std::vector<int> peers;
      for (std::size_t j = i + 1; j < rt.events.size() && is_child(rt.events[j]); ++j) {
        const Event& d = rt.events[j];
        ASSERT_EQ(cls(d), OpClass::RequestDone);
        ASSERT_NE(d.request, 0u) << op_name(c.op) << " seq " << c.seq;
        auto post = posts.find(d.request);
        ASSERT_NE(post, posts.end()) << "completion of unknown request " << d.request;
        ++completions[d.request];
        const Event& p = *post->second;
        EXPECT_EQ(d.peer, p.peer);
        EXPECT_EQ(d.tag, p.tag);
        EXPECT_EQ(d.bytes, p.bytes);
        if (cls(p) == OpClass::Irecv) {  // from q: tag 50 + me, me + 1 ints
          EXPECT_EQ(d.tag, 50 + me);
          EXPECT_EQ(d.status_source, p.peer);
          EXPECT_EQ(d.status_tag, 50 + me);
          EXPECT_EQ(d.status_bytes, 4 * (me + 1));
        } else {  // to p: tag 50 + p, p + 1 ints
          EXPECT_EQ(d.tag, 50 + d.peer);
          EXPECT_EQ(d.bytes, 4 * (d.peer + 1));
          peers.push_back(d.peer);
        }
      }
      if (!peers.empty()) send_peers_per_call.push_back(peers);
    }
    // Each request completes once per instance: once for Isend/Irecv, once per
    // Start for the persistent sends.
    for (const auto& [id, post] : posts) {
      int expected = cls(*post) == OpClass::SendInit ? starts[id] : 1;
      EXPECT_EQ(completions[id], expected) << op_name(post->op) << " request " << id << " to/from " << post->peer;
    }
    EXPECT_EQ(starts.size(), static_cast<std::size_t>(n - 1));
    std::vector<int> others, reversed;
    for (int p = 0; p < n; ++p)
      if (p != me) others.push_back(p);
    reversed.assign(others.rbegin(), others.rend());
    // Phase 1: one Waitall, peers in array order (7 distinct peers).
    ASSERT_FALSE(send_peers_per_call.empty());
    EXPECT_EQ(send_peers_per_call[0], others);
    // Phase 2: one Wait per Isend in reverse order.
    ASSERT_GE(send_peers_per_call.size(), 1u + others.size());
    for (std::size_t k = 0; k < others.size(); ++k)
      EXPECT_EQ(send_peers_per_call[1 + k], std::vector<int>{reversed[k]});
    ASSERT_TRUE(rt.live.has_value());
    EXPECT_EQ(rt.live->npending, 0u);
    EXPECT_EQ(rt.live->pending_dropped, 0u);
  }
  Matching m = match_messages(run);
  EXPECT_TRUE(m.unmatched_sends.empty());
  EXPECT_TRUE(m.unmatched_recvs.empty());
}

INSTANTIATE_TEST_SUITE_P(Oversubscription, Eager, ::testing::Values("off", "on"));

// Issue 20: unsuccessful polls fold into one record per polled thing with a
// count, also when a loop alternates MPI_Test and MPI_Iprobe; features, the
// Markov model and the live state still count every call.
TEST(Polling, UnsuccessfulPollsFoldIntoOneRecordWithACount) {
  Result rec = run("poll", 2, {"poll"}, true);
  ASSERT_EQ(rec.rc, 0) << rec.err;
  EXPECT_EQ(rec.out, "poll got 40 41 42\n");
  RunTrace run = read_run(rec.dir);
  const RankTrace& rt = run.ranks[0];
  EXPECT_TRUE(rt.warnings.empty()) << rt.warnings.front();
  std::uint64_t calls_total = 0;
  for (std::uint16_t op : {ops::Test, ops::Iprobe, ops::Testany, ops::Testsome}) {
    SCOPED_TRACE(op_name(op));
    auto v = find(rt, op);
    std::uint64_t calls = 0;
    std::size_t failed = 0;
    for (const Event* e : v) {
      calls += 1 + e->repeats;
      if (e->flags & kFlagTestFailed) ++failed;
      if (e->repeats != 0) {
        EXPECT_TRUE(e->flags & kFlagTestFailed) << "only unsuccessful polls fold";
        EXPECT_GT(e->t_exit_ns, e->t_enter_ns);
      }
    }
    // ~300 ms of polling: many calls, a handful of records.
    EXPECT_GT(calls, 50u);
    EXPECT_LE(v.size(), 3u) << calls << " calls";
    EXPECT_EQ(failed, op == ops::Iprobe ? v.size() : v.size() - 1) << "a final successful poll has its own record";
    ASSERT_FALSE(v.empty());
    EXPECT_EQ(rt.features[v[0]->callsite].calls, calls);
    calls_total += calls;
  }
  EXPECT_LE(rt.events.size(), 40u);
  check_models_consistent(rt);
  check_models_consistent(run.ranks[1]);
  Matching m = match_messages(run);
  EXPECT_EQ(m.messages.size(), 3u);
  EXPECT_TRUE(m.unmatched_sends.empty());
  EXPECT_TRUE(m.unmatched_recvs.empty());
}

// Issue 21, guarded receives: with SCALEFUZZ_NOISE_GUARD_RECEIVES=1 the
// read of a pending Irecv's buffer and the write into a started persistent
// receive's buffer are in ranks/N.accessed (one line each, naming the post
// record), a variable on the same page is not, MPI's writes into the guarded
// buffers land (same output as bare); without the switch nothing is noted.
TEST(GuardReceives, AccessesToPendingReceiveBuffersAreNotedOnlyWithTheSwitch) {
  Result rec;
  ASSERT_NO_FATAL_FAILURE(run_recorded_like_bare("guard", 2, {"guard"}, rec, {"SCALEFUZZ_NOISE_GUARD_RECEIVES=1"}));
  EXPECT_EQ(rec.out, "guard counter 4950 data ok\n");
  RunTrace trace = read_run(rec.dir);
  for (int r = 0; r < 2; ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    std::ifstream in(rec.dir / "ranks" / (std::to_string(r) + ".accessed"));
    std::vector<std::pair<std::uint16_t, std::string>> seen;  // (op of the post record, read/write)
    std::uint64_t post = 0, seq = 0;
    std::string what, rest;
    while (in >> post >> what >> seq && std::getline(in, rest)) {
      for (const auto& e : trace.ranks[r].events)
        if (e.seq == post) seen.emplace_back(e.op, what);
      EXPECT_GE(std::count(rest.begin(), rest.end(), ' '), 3) << "address and a stack: " << rest;
    }
    EXPECT_EQ(seen, (std::vector<std::pair<std::uint16_t, std::string>>{{ops::Irecv, "read"}, {ops::Start, "write"}}));
  }
  Result off = run("guard_off", 2, {"guard"}, true);
  ASSERT_EQ(off.rc, 0) << off.err;
  EXPECT_FALSE(fs::exists(off.dir / "ranks" / "0.accessed"));
}

// Issue 33, one-sided records (trace format 4): window ids equal on both
// ranks, targets as world ranks, displacement, lock type, the PSCW groups'
// children; with SCALEFUZZ_NOISE_GUARD_WINDOWS=1 rank 1's store into its own
// window is one line of ranks/1.winaccess naming the window, and MPI's
// writes into the guarded window land (same output as bare).
TEST(GuardWindows, OneSidedCallsAreRecordedAndOwnWindowStoresNoted) {
  Result rec;
  ASSERT_NO_FATAL_FAILURE(run_recorded_like_bare("rma", 2, {"rma"}, rec, {"SCALEFUZZ_NOISE_GUARD_WINDOWS=1"}));
  EXPECT_EQ(rec.out, "rma data ok\n");
  RunTrace trace = read_run(rec.dir);
  std::uint32_t win[2] = {0, 0};
  for (int r = 0; r < 2; ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const auto& evs = trace.ranks[r].events;
    std::vector<std::uint16_t> rma_ops;
    int children = 0;
    for (const auto& e : evs) {
      const auto c = static_cast<OpClass>(e.op_class);
      if (c == OpClass::WinMgmt && e.op == ops::Win_allocate) win[r] = e.comm;
      if (c == OpClass::Rma) {
        rma_ops.push_back(e.op);
        EXPECT_EQ(e.peer, 1 - r);
        EXPECT_EQ(e.comm, win[r]);
      }
      if (c == OpClass::Rma && e.op == ops::Put && e.count == 8) EXPECT_EQ(e.rcount_arg, 4);
      if (c == OpClass::Rma && e.op == ops::Accumulate)
        EXPECT_EQ(e.reduce_op, static_cast<std::uint8_t>(ReduceOp::Sum));
      if (c == OpClass::Rma && e.op == ops::Rput) EXPECT_NE(e.request, 0u);
      if (c == OpClass::RmaSync && e.op == ops::Win_lock) {
        EXPECT_EQ(e.tag, kLockExclusive);
        EXPECT_EQ(e.peer, 1 - r);
      }
      if (c == OpClass::RmaSync && (e.flags & kFlagChild) != 0) {
        ++children;
        EXPECT_EQ(e.peer, 1 - r);
      }
    }
    EXPECT_EQ(rma_ops, (std::vector<std::uint16_t>{ops::Put, ops::Get, ops::Accumulate, ops::Put, ops::Rput, ops::Put}));
    EXPECT_EQ(children, 2) << "Win_post and Win_start: one child each";
  }
  EXPECT_NE(win[0], 0u);
  EXPECT_EQ(win[0], win[1]);
  std::ifstream in(rec.dir / "ranks" / "1.winaccess");
  std::string line;
  int stores_500 = 0;
  const auto* alloc = [&]() -> const Event* {
    for (const auto& e : trace.ranks[1].events)
      if (e.op == ops::Win_allocate) return &e;
    return nullptr;
  }();
  ASSERT_NE(alloc, nullptr);
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::uint32_t w = 0;
    std::string what;
    std::uint64_t seq = 0, thread = 1, t_fault = 0, t_access = 0, address = 0;
    ASSERT_TRUE(static_cast<bool>(f >> std::hex >> w >> what >> std::dec >> seq >> thread >> t_fault >> t_access >> std::hex >>
                                  address))
        << line;
    EXPECT_EQ(w, win[1]);
    EXPECT_EQ(thread, 0u) << line;  // one thread: the pages open for every MPI call
    EXPECT_GT(t_fault, 0u) << line;
    EXPECT_GE(t_access, t_fault) << line;
    if (address == alloc->buffer + 500 * sizeof(int) && what == "write") ++stores_500;
  }
  EXPECT_EQ(stores_500, 1);
  Result off = run("rma_off", 2, {"rma"}, true);
  ASSERT_EQ(off.rc, 0) << off.err;
  EXPECT_FALSE(fs::exists(off.dir / "ranks" / "1.winaccess"));
}

// Issue 20: the run's trace size cap (SCALEFUZZ_TRACE_CAP_MB over the ranks,
// at least 1 MiB each) stops recording with a note the reader turns into a
// warning; the program runs on and the counters still count every call.
TEST(Polling, TraceSizeCapStopsRecordingWithANote) {
  Result rec = run("capped", 2, {"loop", "20000"}, true, {"SCALEFUZZ_TRACE_CAP_MB=1"});
  ASSERT_EQ(rec.rc, 0) << rec.err;
  EXPECT_EQ(rec.out, "loop done\n");
  EXPECT_NE(rec.err.find("size cap"), std::string::npos) << rec.err;
  RunTrace run = read_run(rec.dir);
  for (const auto& rt : run.ranks) {
    SCOPED_TRACE("rank " + std::to_string(rt.rank));
    EXPECT_TRUE(rt.events_capped);
    ASSERT_FALSE(rt.warnings.empty());
    EXPECT_NE(rt.warnings.back().find("size cap reached"), std::string::npos) << rt.warnings.back();
    EXPECT_EQ(rt.events.size(), (std::size_t{1} << 20) / sizeof(Event));
    EXPECT_LE(fs::file_size(rec.dir / "ranks" / (std::to_string(rt.rank) + ".events")),
              (std::size_t{1} << 20) + sizeof(FileHeader));
    ASSERT_TRUE(rt.live.has_value());
    EXPECT_GT(rt.live->calls, 3u * 20000u) << "the live state counts calls beyond the cap";
    EXPECT_EQ(rt.live->finalized, 1);
  }
}

// Format 3: a rank that returns from MPI_Finalize packs its events file in
// place and keeps only the used Markov edges; the reader gives back the same
// records as the raw file of the same program (SCALEFUZZ_TRACE_ENCODING=raw).
TEST(TraceFiles, FinishedRanksArePackedAndReadAsTheirRawRecords) {
  const int n = 4;
  Result packed = run("packed", n, {"coll"}, true);
  Result raw = run("unpacked", n, {"coll"}, true, {"SCALEFUZZ_TRACE_ENCODING=raw"});
  ASSERT_EQ(packed.rc, 0) << packed.err;
  ASSERT_EQ(raw.rc, 0) << raw.err;
  auto header = [](const fs::path& file) {
    FileHeader h{};
    std::ifstream(file, std::ios::binary).read(reinterpret_cast<char*>(&h), sizeof h);
    return h;
  };
  RunTrace p = read_run(packed.dir), r = read_run(raw.dir);
  ASSERT_EQ(p.ranks.size(), r.ranks.size());
  for (int rank = 0; rank < n; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    const fs::path ranks = packed.dir / "ranks", raw_ranks = raw.dir / "ranks";
    const std::string base = std::to_string(rank);
    EXPECT_EQ(header(ranks / (base + ".events")).kind, static_cast<std::uint32_t>(FileKind::PackedEvents));
    EXPECT_EQ(header(ranks / (base + ".events")).version, kFormatVersion);
    EXPECT_EQ(header(raw_ranks / (base + ".events")).kind, static_cast<std::uint32_t>(FileKind::Events));
    EXPECT_FALSE(fs::exists(ranks / (base + ".events.tmp")));
    const auto& pe = p.ranks[static_cast<std::size_t>(rank)];
    const auto& re = r.ranks[static_cast<std::size_t>(rank)];
    EXPECT_TRUE(pe.warnings.empty()) << pe.warnings.front();
    EXPECT_EQ(fs::file_size(ranks / (base + ".markov")), sizeof(FileHeader) + pe.markov.edges.size() * sizeof(MarkovEdge));
    // Every call here is at a new call site (no context to delta against):
    // still ~35 bytes per record against 128 (loops pack to ~14, bench/growth).
    EXPECT_LT(fs::file_size(ranks / (base + ".events")) * 3, fs::file_size(raw_ranks / (base + ".events")));
    ASSERT_EQ(pe.events.size(), re.events.size());
    for (std::size_t i = 0; i < pe.events.size(); ++i) {
      const Event &a = pe.events[i], &b = re.events[i];
      EXPECT_EQ(a.seq, i + 1);
      EXPECT_NE(a.t_exit_ns, 0u) << i;
      EXPECT_TRUE(a.op == b.op && a.op_class == b.op_class && a.flags == b.flags && a.peer == b.peer &&
                  a.tag == b.tag && a.comm == b.comm && a.root == b.root && a.count == b.count &&
                  a.bytes == b.bytes && a.request == b.request && a.dtype == b.dtype && a.reduce_op == b.reduce_op)
          << "event " << i << ": " << op_name(a.op) << " vs " << op_name(b.op);
    }
    EXPECT_EQ(pe.markov.edges.size(), re.markov.edges.size());
  }
}

class Collectives : public Recorded {};

TEST_F(Collectives, OneRecordPerCallWithVolumesAndRoots) {
  const int n = 4;
  ASSERT_NO_FATAL_FAILURE(record("coll", n));
  for (const auto& rt : run.ranks) {
    SCOPED_TRACE("rank " + std::to_string(rt.rank));
    for (std::uint16_t op : {ops::Barrier, ops::Bcast, ops::Allreduce, ops::Gather, ops::Gatherv, ops::Scatter,
                             ops::Scatterv, ops::Allgather, ops::Allgatherv, ops::Alltoall, ops::Alltoallv,
                             ops::Reduce_scatter_block, ops::Reduce_scatter, ops::Scan, ops::Exscan, ops::Ibarrier,
                             ops::Iallreduce}) {
      auto v = find(rt, op);
      ASSERT_EQ(v.size(), 1u) << op_name(op);
      EXPECT_EQ(v[0]->comm, kCommWorld);
    }
    EXPECT_EQ(find(rt, ops::Reduce).size(), 2u);
    const Event* gather = find(rt, ops::Gather)[0];
    EXPECT_EQ(gather->root, 0);
    EXPECT_EQ(gather->bytes, 4);
    const Event* a2a = find(rt, ops::Alltoall)[0];
    EXPECT_EQ(a2a->bytes, 4 * n);  // one int to every rank
    EXPECT_EQ(rt.features[a2a->callsite].bytes_received, static_cast<std::uint64_t>(4 * n));
    const Event* allg = find(rt, ops::Allgather)[0];
    EXPECT_EQ(rt.features[allg->callsite].bytes_received, static_cast<std::uint64_t>(4 * n));
    const Event* bcast = find(rt, ops::Bcast)[0];
    EXPECT_EQ(rt.features[bcast->callsite].bytes_sent, rt.rank == 0 ? 4u : 0u);
    EXPECT_EQ(rt.features[bcast->callsite].bytes_received, rt.rank == 0 ? 0u : 4u);
    // Nonblocking collectives complete through RequestDone children.
    const Event* iall = find(rt, ops::Iallreduce)[0];
    EXPECT_NE(iall->request, 0u);
    bool done = false;
    for (const auto& e : rt.events) done |= cls(e) == OpClass::RequestDone && e.request == iall->request;
    EXPECT_TRUE(done);
    check_models_consistent(rt);
  }
}

// MPI_Pack/MPI_Unpack (additive OpClass Pack/Unpack): buffer = bytes read,
// rbuffer = bytes written (the packed side at the starting position),
// bytes = how far the position moved.
class Packing : public Recorded {};

TEST_F(Packing, PackAndUnpackRecordWhatMovedWhere) {
  const int n = 3;
  ASSERT_NO_FATAL_FAILURE(record("pack", n));
  for (const auto& rt : run.ranks) {
    SCOPED_TRACE("rank " + std::to_string(rt.rank));
    auto packs = find(rt, ops::Pack);
    auto unpacks = find(rt, ops::Unpack);
    ASSERT_EQ(packs.size(), 2u);
    ASSERT_EQ(unpacks.size(), 2u);
    for (const Event* e : packs) EXPECT_EQ(cls(*e), OpClass::Pack);
    for (const Event* e : unpacks) EXPECT_EQ(cls(*e), OpClass::Unpack);
    EXPECT_EQ(packs[0]->bytes, 4);        // one int
    EXPECT_EQ(packs[1]->bytes, 8 * 8);    // the column's 8 doubles, holes left out
    EXPECT_EQ(packs[1]->rbuffer, packs[0]->rbuffer + 4);  // written at the position the first pack left
    EXPECT_EQ(packs[1]->count, 1);
    const TypeEntry* column = find_type(rt, packs[1]->dtype);
    ASSERT_NE(column, nullptr);
    EXPECT_EQ(column->size, 64);
    EXPECT_EQ(column->extent, (7 * 4 + 1) * 8);
    const Event* sendrecv = find(rt, ops::Sendrecv)[0];
    EXPECT_EQ(sendrecv->buffer, packs[0]->rbuffer);  // the packed buffer goes out
    EXPECT_EQ(sendrecv->bytes, 68);
    EXPECT_EQ(unpacks[0]->buffer, sendrecv->rbuffer);  // read from the received buffer
    EXPECT_EQ(unpacks[1]->buffer, unpacks[0]->buffer + 4);
    EXPECT_EQ(unpacks[1]->bytes, 64);
    EXPECT_EQ(unpacks[1]->dtype, packs[1]->dtype);
    EXPECT_NE(unpacks[1]->rbuffer, 0u);  // &ghost[0][3], the typed side written
    EXPECT_NE(unpacks[1]->rbuffer, packs[1]->buffer);
  }
}

TEST(Communicators, IdsAreEqualOnMembersAndPeersAreWorldRanks) {
  const int n = 4;
  Result rec = run("comm", n, {"comm"}, true);
  ASSERT_EQ(rec.rc, 0) << rec.err;
  RunTrace run = read_run(rec.dir);
  std::vector<std::uint32_t> split(n), dup(n), cart(n), undefined(n);
  for (const auto& rt : run.ranks) {
    auto splits = find(rt, ops::Comm_split);
    ASSERT_EQ(splits.size(), 2u);
    split[rt.rank] = splits[0]->comm;
    undefined[rt.rank] = splits[1]->comm;
    EXPECT_EQ(splits[0]->root, static_cast<std::int32_t>(kCommWorld));  // parent id
    dup[rt.rank] = find(rt, ops::Comm_dup)[0]->comm;
    cart[rt.rank] = find(rt, ops::Cart_create)[0]->comm;
    // Collectives on the new communicators carry their ids.
    EXPECT_EQ(find(rt, ops::Allreduce)[0]->comm, split[rt.rank]);
    EXPECT_EQ(find(rt, ops::Barrier)[0]->comm, dup[rt.rank]);
    EXPECT_EQ(find(rt, ops::Barrier)[1]->comm, cart[rt.rank]);
  }
  EXPECT_EQ(split[0], split[2]);
  EXPECT_EQ(split[1], split[3]);
  EXPECT_NE(split[0], split[1]);
  for (int r = 0; r < n; ++r) {
    EXPECT_EQ(dup[r], dup[0]);
    EXPECT_EQ(cart[r], cart[0]);
    EXPECT_NE(dup[r], kCommWorld);
    EXPECT_NE(dup[r], kCommSelf);
    EXPECT_EQ(undefined[r] == kCommNull, r != 0);
  }
  // A communicator only the even ranks created does not shift the ids of
  // those created after it (the parent's creation ordinal would).
  std::vector<std::uint32_t> after(n);
  for (const auto& rt : run.ranks) {
    auto dups = find(rt, ops::Comm_dup);
    ASSERT_EQ(dups.size(), 2u);
    after[rt.rank] = dups[1]->comm;
    EXPECT_EQ(find(rt, ops::Barrier)[2]->comm, after[rt.rank]);
    EXPECT_EQ(find(rt, ops::Comm_create_group).size(), rt.rank % 2 == 0 ? 1u : 0u);
  }
  for (int r = 0; r < n; ++r) {
    EXPECT_EQ(after[r], after[0]);
    EXPECT_NE(after[r], dup[r]);
  }
  EXPECT_NE(dup[0], cart[0]);
  EXPECT_NE(dup[0], split[0]);
  // Sub-communicator rank 1 -> rank 0 is world 2 -> 0 and 3 -> 1.
  auto recv0 = find(run.ranks[0], ops::Recv);
  ASSERT_EQ(recv0.size(), 1u);
  EXPECT_EQ(recv0[0]->peer, 2);
  EXPECT_EQ(recv0[0]->status_source, 2);
  EXPECT_EQ(find(run.ranks[3], ops::Send)[0]->peer, 1);
  Matching m = match_messages(run);
  EXPECT_EQ(m.messages.size(), 2u);
  EXPECT_TRUE(m.unmatched_sends.empty());
}

TEST(CallSites, DistinctPerSourceLineWithMarkovEdges) {
  Result rec = run("sites", 2, {"sites"}, true);
  ASSERT_EQ(rec.rc, 0) << rec.err;
  RunTrace run = read_run(rec.dir);
  for (auto& rt : run.ranks) {
    auto barriers = find(rt, ops::Barrier);
    ASSERT_EQ(barriers.size(), 6u);
    std::uint32_t a = barriers[0]->callsite, b = barriers[1]->callsite;
    EXPECT_NE(a, b);
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(barriers[i]->callsite, i % 2 == 0 ? a : b);
    EXPECT_EQ(rt.features[a].calls, 3u);
    EXPECT_EQ(rt.features[b].calls, 3u);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> edges;
    for (const auto& e : rt.markov.edges) edges[{e.from, e.to}] = e.count;
    EXPECT_EQ((edges[{a, b}]), 3u);
    EXPECT_EQ((edges[{b, a}]), 2u);
    check_models_consistent(rt);
    // Symbolized through N.modules: the innermost frame is in barrier_a / barrier_b.
    symbolize(rec.dir, rt);
    ASSERT_FALSE(rt.sites[a].symbolized.empty());
    EXPECT_NE(rt.sites[a].symbolized[0].function.find("barrier_a"), std::string::npos)
        << rt.sites[a].symbolized[0].function;
    EXPECT_NE(rt.sites[b].symbolized[0].function.find("barrier_b"), std::string::npos);
    EXPECT_NE(rt.sites[a].symbolized[0].file.find("scenarios.c"), std::string::npos);
  }
  EXPECT_EQ(run.ranks[0].sites[1].stable_hash, run.ranks[1].sites[1].stable_hash);
}

TEST(CallSites, DepthOneUsesTheReturnAddressAlone) {
  Result rec = run("sites_depth1", 2, {"sites"}, true, {"SCALEFUZZ_STACK_DEPTH=1"});
  ASSERT_EQ(rec.rc, 0) << rec.err;
  RankTrace rt = read_rank(rec.dir, 0);
  auto barriers = find(rt, ops::Barrier);
  ASSERT_EQ(barriers.size(), 6u);
  EXPECT_NE(barriers[0]->callsite, barriers[1]->callsite);
  for (const auto& site : rt.sites) EXPECT_EQ(site.frames.size(), 1u);
  symbolize(rec.dir, rt);
  EXPECT_NE(rt.sites[barriers[0]->callsite].symbolized[0].function.find("barrier_a"), std::string::npos);
}

// The call-site cache (recorder/stack_cache.hpp) keys on the innermost return
// address and stack pointer, which are equal for both callers here; only the
// saved return addresses differ. 600 calls: several cache re-checks per rank.
TEST(CallSites, CacheTellsCallersAtTheSameDepthApart) {
  Result rec = run("callers", 2, {"callers", "600"}, true);
  ASSERT_EQ(rec.rc, 0) << rec.err;
  EXPECT_EQ(rec.err.find("disagreed"), std::string::npos) << rec.err;
  Result walk = run("callers_nocache", 2, {"callers", "600"}, true, {"SCALEFUZZ_STACK_CACHE=0"});
  ASSERT_EQ(walk.rc, 0) << walk.err;
  for (int rank = 0; rank < 2; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    RankTrace rt = read_rank(rec.dir, rank);
    auto barriers = find(rt, ops::Barrier);
    ASSERT_EQ(barriers.size(), 600u);
    const std::uint32_t x = barriers[0]->callsite, y = barriers[2]->callsite;
    ASSERT_NE(x, y);
    for (std::size_t i = 0; i < barriers.size(); ++i)
      ASSERT_EQ(barriers[i]->callsite, i % 3 == 2 ? y : x) << "call " << i;
    EXPECT_EQ(rt.features[x].calls, 400u);
    EXPECT_EQ(rt.features[y].calls, 200u);
    ASSERT_GE(rt.sites[x].frames.size(), 2u);
    EXPECT_EQ(rt.sites[x].frames[0], rt.sites[y].frames[0]);  // same return address in shared_leaf
    symbolize(rec.dir, rt);
    EXPECT_NE(rt.sites[x].symbolized[1].function.find("caller_x"), std::string::npos);
    EXPECT_NE(rt.sites[y].symbolized[1].function.find("caller_y"), std::string::npos);
    // The cached walk names the same stacks as libunwind's plain backtrace.
    RankTrace plain = read_rank(walk.dir, rank);
    std::set<std::uint64_t> cached_hashes, plain_hashes;
    for (const auto& site : rt.sites) cached_hashes.insert(site.stable_hash);
    for (const auto& site : plain.sites) plain_hashes.insert(site.stable_hash);
    EXPECT_EQ(cached_hashes, plain_hashes);
  }
}

TEST(Errors, TruncatedReceiveIsRecordedBeforeTheAbort) {
  Result rec = run("truncate", 2, {"truncate"}, true);
  EXPECT_NE(rec.rc, 0);
  // Not checked: the handler's note on stderr. Hydra can tear the job down
  // before it forwards the aborting rank's last output (seen under load in
  // CI), which is why the code goes into the trace.
  RankTrace r1 = read_rank(rec.dir, 1);
  auto recv = find(r1, ops::Recv);
  ASSERT_EQ(recv.size(), 1u);
  // MPICH keeps the error class in the low 7 bits of the code; 14 = MPI_ERR_TRUNCATE.
  EXPECT_EQ(recv[0]->error & 0x7f, 14) << recv[0]->error;
  EXPECT_NE(recv[0]->t_exit_ns, 0u);
  ASSERT_TRUE(r1.live.has_value());
  EXPECT_EQ(r1.live->current_seq, recv[0]->seq);
  EXPECT_EQ(r1.live->finalized, 0);
}

// The allocation log (ranks/N.allocs) records the application's heap blocks
// and their frees, also for a block made before MPI_Init and one made through
// libc, and none of MPI's own: the allocator hooks return early for blocks
// whose allocating or freeing caller is MPI (bench/injector: a 2-rank
// MPI_Allreduce mallocs and frees ~3 of them per call).
TEST(Allocations, ApplicationBlocksAndTheirFreesAreRecordedMpiBlocksAreNot) {
  Result rec = run("heap", 2, {"heap"}, true);
  ASSERT_EQ(rec.rc, 0) << rec.err;
  std::map<std::string, std::uint64_t> addr;
  {
    std::istringstream out(rec.out);
    std::string word;
    ASSERT_TRUE(out >> word && word == "heap") << rec.out;
    for (std::string name, value; out >> name >> value && name != "sum";)
      addr[name] = std::stoull(value, nullptr, 16);
  }
  ASSERT_EQ(addr.size(), 6u) << rec.out;
  std::vector<AllocRecord> log = read_allocs(rec.dir, 0);
  std::map<std::uint64_t, std::pair<int, int>> seen;  // address -> (allocs, frees)
  for (const AllocRecord& r : log) {
    if (r.kind == static_cast<std::uint32_t>(AllocKind::Alloc)) {
      EXPECT_NE(r.site, 0u) << std::hex << r.addr;  // MPI's blocks are not recorded
      ++seen[r.addr].first;
    } else {
      ++seen[r.addr].second;
    }
  }
  auto counts = [&](const char* name) { return seen[addr.at(name)]; };
  EXPECT_EQ(counts("early_kept"), std::make_pair(1, 0));
  EXPECT_EQ(counts("early_freed"), std::make_pair(1, 1));
  EXPECT_EQ(counts("late"), std::make_pair(1, 0));
  EXPECT_EQ(counts("late_freed"), std::make_pair(1, 1));
  EXPECT_EQ(counts("copy"), std::make_pair(1, 1));  // strdup: the application frame behind libc
  EXPECT_EQ(counts("small"), std::make_pair(0, 0));  // below SCALEFUZZ_ALLOC_MIN_BYTES
  // Frees only of recorded blocks: nothing of MPI's 200 Allreduce calls.
  int frees = 0;
  for (const auto& [a, c] : seen) frees += c.second;
  EXPECT_EQ(frees, 3);
}

TEST(Processes, MpiexecAndProxyUnaffectedByThePreload) {
  Result rec;
  ASSERT_NO_FATAL_FAILURE(run_recorded_like_bare("preload_all", 2, {"p2p"}, rec, {}, /*preload_mpiexec=*/true));
  std::set<std::string> files;
  for (const auto& e : fs::directory_iterator(rec.dir / "ranks")) files.insert(e.path().filename().string());
  std::set<std::string> want;
  for (int r = 0; r < 2; ++r)
    for (const char* ext : {"events", "sites", "features", "markov", "live", "modules", "allocs", "types", "errors", "frames", "modified",
                            "decisions"})
      want.insert(std::to_string(r) + "." + ext);
  EXPECT_EQ(files, want);
  check_p2p(read_run(rec.dir), 2);
}

TEST(Processes, NoRunDirMeansNoFiles) {
  Result bare = run("norun_bare", 2, {"coll"}, false);
  fs::path cwd_before = fs::current_path();
  Result rec = run("norun", 2, {"coll"}, false, {std::string("LD_PRELOAD=") + SCALEFUZZ_INJECT_LIB});
  ASSERT_EQ(rec.rc, 0) << rec.err;
  EXPECT_EQ(rec.out, bare.out);
  EXPECT_FALSE(fs::exists(rec.dir / "ranks"));
}

// SIGKILL at random moments: each trial must leave a readable trace that ends
// at a complete record or at one in progress (the bench runs >= 100 trials).
TEST(CrashSafety, SigkillAtRandomMomentsLeavesReadableTraces) {
  std::mt19937 rng(static_cast<unsigned>(::getpid()));
  int with_events = 0;
  const int trials = 6;
  for (int trial = 0; trial < trials; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    fs::path dir = fresh_dir("kill" + std::to_string(trial));
    pid_t job = spawn(recording_launch(dir, 2, {SCALEFUZZ_SCENARIOS, "loop", "100000000"}));
    // Wait for rank 1's events header, then kill it after a random delay.
    fs::path events = dir / "ranks" / "1.events";
    FileHeader h{};
    for (int i = 0; i < 3000; ++i) {
      std::this_thread::sleep_for(5ms);
      std::error_code ec;
      if (fs::exists(events, ec) && fs::file_size(events, ec) >= sizeof h) {
        FILE* f = std::fopen(events.c_str(), "rb");
        bool ok = f != nullptr && std::fread(&h, sizeof h, 1, f) == 1;
        if (f != nullptr) std::fclose(f);
        if (ok && header_problem(h, FileKind::Events) == nullptr) break;
      }
    }
    ASSERT_EQ(header_problem(h, FileKind::Events), nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 400)(rng)));
    ASSERT_EQ(::kill(static_cast<pid_t>(h.pid), SIGKILL), 0);
    EXPECT_NE(wait_exit(job, 60s), 0);
    for (int r = 0; r < 2; ++r) {
      RankTrace rt = read_rank(dir, r);
      for (const auto& w : rt.warnings) EXPECT_EQ(w.find("corrupt"), std::string::npos) << w;
      if (rt.events.empty()) continue;  // killed inside MPI_Init: header only, still valid
      if (r == 1) ++with_events;
      for (const auto& w : rt.warnings) EXPECT_EQ(w.find("cut"), std::string::npos) << w;
      // Only the final call (and its children) may be unfinished.
      std::size_t group = rt.events.size() - 1;
      while (group > 0 && is_child(rt.events[group])) --group;
      for (std::size_t i = 0; i < group; ++i) EXPECT_NE(rt.events[i].t_exit_ns, 0u) << "record " << i;
      EXPECT_EQ(rt.events[0].op, ops::Init);
      ASSERT_TRUE(rt.live.has_value());
      EXPECT_LE(rt.live->current_seq, rt.events.size());
      EXPECT_EQ(rt.live->finalized, 0);
    }
  }
  EXPECT_GE(with_events, trials / 2) << "most kills should land after MPI_Init";
}
