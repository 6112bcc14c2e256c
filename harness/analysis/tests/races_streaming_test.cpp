// The races detector inside the analysis engine judges runs one at a time
// (RaceJudge): whatever order the store lists runs in — "application" noise
// sorts before "none" — a noisy run is judged against every quiet run of its
// point, and the findings do not depend on the order.
#include <gtest/gtest.h>

#include <algorithm>
#include <unistd.h>

#include "scalefuzz/analysis/engine.hpp"
#include "scalefuzz/testing/files.hpp"
#include "scalefuzz/trace/writer.hpp"

namespace {

namespace fs = std::filesystem;
namespace st = scalefuzz::trace;
using scalefuzz::harness::OutcomeKind;
using scalefuzz::harness::RunRecord;

// Rank 0 receives twice with MPI_ANY_SOURCE, at two receive sites (A, then
// B); ranks 1 and 2 send once each from one send line. `rank2_first`: rank
// 2's message reaches site A.
void write_run(const fs::path& dir, bool rank2_first) {
  auto rank = [](int r) {
    st::RankTrace rt;
    rt.rank = r;
    rt.world_size = 3;
    rt.pid = 100 + r;
    rt.start_ns = 1'000'000;
    return rt;
  };
  auto site = [](std::uint32_t id, std::uint64_t hash) {
    st::CallSiteInfo s;
    s.id = id;
    s.stable_hash = hash;
    s.frames = {0x400000ull + hash};
    return s;
  };
  auto event = [](st::RankTrace& rt, st::OpClass cls, std::uint32_t site, std::int32_t peer, std::int32_t source) {
    st::Event e{};
    e.seq = rt.events.size() + 1;
    e.op_class = static_cast<std::uint8_t>(cls);
    e.callsite = site;
    e.peer = peer;
    e.tag = 5;
    e.comm = st::kCommWorld;
    e.root = st::kNoPeer;
    e.bytes = 8;
    e.status_source = source;
    e.status_tag = source >= 0 ? 5 : st::kNoTag;
    e.t_enter_ns = 1000 * e.seq;
    e.t_exit_ns = e.t_enter_ns + 500;
    rt.events.push_back(e);
  };
  st::RankTrace r0 = rank(0);
  r0.sites = {site(0, 0xA), site(1, 0xB)};
  event(r0, st::OpClass::Recv, 0, st::kAnySource, rank2_first ? 2 : 1);
  event(r0, st::OpClass::Recv, 1, st::kAnySource, rank2_first ? 1 : 2);
  st::write_rank(dir, r0);
  for (int r : {1, 2}) {
    st::RankTrace rt = rank(r);
    rt.sites = {site(0, 0x5E)};
    event(rt, st::OpClass::Send, 0, 0, st::kNoPeer);
    st::write_rank(dir, rt);
  }
}

class RacesStreaming : public ::testing::Test {
 protected:
  RunRecord run(const std::string& id, scalefuzz::noise::Mode mode, bool rank2_first) {
    RunRecord r;
    r.spec.run_id = id;
    r.spec.nprocs = 3;
    r.spec.noise.mode = mode;
    r.dir = tmp_.path() / id;
    write_run(r.dir, rank2_first);
    r.outcome.emplace();
    r.outcome->kind = OutcomeKind::Ok;
    return r;
  }

  std::vector<std::string> unintended(const std::vector<RunRecord>& runs) {
    scalefuzz::analysis::AnalysisOptions options;
    options.detectors = {"races"};
    std::vector<std::string> out;
    for (const auto& f : scalefuzz::analysis::analyze_runs(runs, options)) {
      EXPECT_NE(f.kind, "analysis-error") << f.title;
      if (f.kind == "unintended-match") out.push_back(f.run_id);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  scalefuzz::testing::TempDir tmp_{"sf-races-streaming"};
};

TEST_F(RacesStreaming, NoisyRunsBeforeTheQuietOnesAreJudgedAgainstAllOfThem) {
  using scalefuzz::noise::Mode;
  // A second quiet run that swaps the order makes the swap intended: a run
  // judged before it was observed would be reported wrongly.
  std::vector<RunRecord> runs = {run("np3-application-r0", Mode::Application, true),
                                 run("np3-none-r0", Mode::None, false), run("np3-none-r1", Mode::None, true),
                                 run("np3-system-r0", Mode::System, true)};
  EXPECT_TRUE(unintended(runs).empty());

  // Only one quiet order: the swapped runs are unintended matches, wherever
  // they come in the list.
  runs[2] = run("np3-none-r1", Mode::None, false);
  // Each swapped run: both receive sites took the other rank's send.
  const std::vector<std::string> want = {"np3-application-r0", "np3-application-r0", "np3-system-r0",
                                         "np3-system-r0"};
  EXPECT_EQ(unintended(runs), want);
  std::reverse(runs.begin(), runs.end());
  EXPECT_EQ(unintended(runs), want);
}

}  // namespace
