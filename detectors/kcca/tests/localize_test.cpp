// §5.4 localization and the findings glue, on hand-built traces of an
// allgather whose algorithm switches from ring to recursive doubling.
#include <gtest/gtest.h>

#include "scalefuzz/detectors/kcca/findings.hpp"
#include "scalefuzz/detectors/kcca/localize.hpp"

namespace kc = scalefuzz::detectors::kcca;
namespace tr = scalefuzz::trace;

namespace {

constexpr std::uint64_t kRing = 0xA1, kRecDbl = 0xA2, kHalo = 0xB1, kReduce = 0xC1;

tr::Frame frame(const std::string& module, std::uint64_t offset, const std::string& fn, int line) {
  return {0x400000 + offset, module, offset, fn, "allgather.c", line};
}

// Innermost first: the MPI call's caller, the collective, main, libc.
std::vector<tr::Frame> stack(std::uint64_t hash) {
  const std::string app = "/opt/scenarios/allgather_overflow", libc = "/lib/x86_64-linux-gnu/libc.so.6";
  const tr::Frame main_frame = frame(app, 0x900, "main", 200), start = frame(libc, 0x2724a, "__libc_start_main", 0);
  switch (hash) {
    case kRing: return {frame(app, 0x310, "allgather_ring", 60), frame(app, 0x520, "sf_allgather", 120), main_frame, start};
    case kRecDbl: return {frame(app, 0x410, "allgather_recursive_doubling", 80), frame(app, 0x540, "sf_allgather", 118), main_frame, start};
    case kHalo: return {frame(app, 0x700, "halo_exchange", 150), main_frame, start};
    default: return {frame(app, 0x800, "reduce_checksum", 170), main_frame, start};
  }
}

tr::RunTrace run(int p, bool buggy, const std::string& id) {
  tr::RunTrace run;
  run.run_id = id;
  for (int r = 0; r < p; ++r) {
    tr::RankTrace rt;
    rt.rank = r;
    rt.world_size = p;
    const std::uint64_t ag = buggy ? kRecDbl : kRing;
    const int nb = (r > 0) + (r < p - 1);
    const std::vector<std::pair<std::uint64_t, double>> vols = {
        {ag, 2.0 * (p - 1) * 512}, {kHalo, 2.0 * nb * 256}, {kReduce, r == 0 ? (p - 1) * 64.0 : 64.0}};
    for (const auto& [hash, v] : vols) {
      tr::CallSiteInfo site;
      site.id = static_cast<std::uint32_t>(rt.sites.size());
      site.stable_hash = hash;
      site.op = 7;
      site.symbolized = stack(hash);
      rt.sites.push_back(site);
      rt.features.push_back({static_cast<std::uint64_t>(p), static_cast<std::uint64_t>(v / 2), static_cast<std::uint64_t>(v / 2)});
    }
    run.ranks.push_back(std::move(rt));
  }
  return run;
}

}  // namespace

TEST(Localize, MatchesSitesByShareAndFindsTheDivergingFrame) {
  const kc::VolumeProfile train = kc::merge_profiles({kc::volume_profile(run(8, false, "a")), kc::volume_profile(run(12, false, "b"))});
  const kc::VolumeProfile test = kc::volume_profile(run(16, true, "c"));
  ASSERT_EQ(train.sites.front().stable_hash, kRing);  // largest share first
  const auto div = kc::localize(train, test);
  ASSERT_EQ(div.size(), 1u);  // halo and reduce keep their stacks
  const kc::Divergence& d = div.front();
  EXPECT_EQ(d.test_hash, kRecDbl);
  EXPECT_EQ(d.train_hash, kRing);
  EXPECT_EQ(d.differing_frames, (std::vector<int>{0, 1}));
  EXPECT_EQ(d.divergence_frame, 1);  // the paths split inside sf_allgather
  ASSERT_TRUE(d.test_frame && d.train_frame);
  EXPECT_EQ(d.test_frame->function, "sf_allgather");
  EXPECT_EQ(d.test_frame->line, 118);
  EXPECT_EQ(d.train_frame->line, 120);
  EXPECT_EQ(d.where, "application");
  kc::LocalizeOptions lib;
  lib.application_module = "some_other_app";
  EXPECT_EQ(kc::localize(train, test, lib).front().where, "library");
}

TEST(Localize, CrashSiteComesFirst) {
  const kc::VolumeProfile train = kc::volume_profile(run(8, false, "a"));
  const kc::VolumeProfile test = kc::volume_profile(run(16, true, "c"));
  const auto div = kc::localize(train, test, {}, kHalo);
  ASSERT_GE(div.size(), 2u);
  EXPECT_TRUE(div.front().from_crash);
  EXPECT_EQ(div.front().test_hash, kHalo);
  EXPECT_EQ(div.front().divergence_frame, -1);  // crashed at a site seen in training
  EXPECT_EQ(div[1].test_hash, kRecDbl);
}

TEST(Findings, FlaggedScaleBecomesAScaleAnomalyWithPlotAndLocation) {
  std::vector<kc::RankSample> samples;
  std::vector<kc::VolumeProfile> profiles;
  for (int p = 4; p <= 12; ++p)
    for (int rep = 0; rep < 2; ++rep) {
      const auto r = run(p, false, "train-" + std::to_string(p) + "-" + std::to_string(rep));
      const auto s = kc::samples_from_run(r, {});
      samples.insert(samples.end(), s.begin(), s.end());
      profiles.push_back(kc::volume_profile(r));
    }
  kc::KccaModel model = kc::train(samples, kc::control_names({}));
  model.reference_profile = kc::merge_profiles(profiles);
  std::vector<kc::TestRun> tests;
  for (const int p : {16, 24}) {
    tests.push_back(kc::test_run_from_trace(run(p, true, "bug-" + std::to_string(p)), {}));
    tests.push_back(kc::test_run_from_trace(run(p, false, "clean-" + std::to_string(p)), {}));
  }
  const auto findings = kc::kcca_findings(model, tests);
  int anomalies = 0;
  for (const auto& f : findings) {
    if (f.kind != "scale-anomaly") continue;
    ++anomalies;
    EXPECT_EQ(f.detector, "kcca");
    EXPECT_EQ(f.run_id.rfind("bug-", 0), 0u) << f.run_id;
    EXPECT_EQ(static_cast<int>(f.ranks.size()), f.details.at("nprocs").get<int>());
    EXPECT_EQ(f.location, "sf_allgather (allgather.c:118)");
    EXPECT_EQ(f.details.at("divergences").at(0).at("where"), "application");
    ASSERT_EQ(f.artifacts.size(), 1u);
    EXPECT_EQ(f.artifacts[0].media_type, "image/svg+xml");
    EXPECT_NE(f.artifacts[0].content.find("threshold"), std::string::npos);
  }
  EXPECT_EQ(anomalies, 2);
}

// Issue 37: kcca.library_sites = entry. Two call paths inside a library
// (binomial and ring broadcast of libsf_pblas.so) entered from the same
// application frame merge into one feature with their summed volume; a site
// the application makes itself keeps its stack's hash; without the keying
// every stack is its own feature (Vrisha §4.1).
TEST(SiteKeying, LibraryPathsMergeAtTheApplicationsCallIntoTheLibrary) {
  const std::string app = "/opt/scenarios/dense_panel_bcast", lib = "/opt/scenarios/libsf_pblas.so",
                    mpi = "/usr/lib/x86_64-linux-gnu/libmpich.so.12";
  const tr::Frame mpi_send = {0x7f0000001000, mpi, 0x1000, "MPI_Send", "", 0},
                  entry = {0x401200, app, 0x1200, "factor_sweep", "dense_panel_bcast.c", 70},
                  main_frame = {0x401500, app, 0x1500, "main", "dense_panel_bcast.c", 95};
  tr::RankTrace rt;
  rt.rank = 0;
  rt.world_size = 6;
  auto add_site = [&](std::uint64_t hash, std::vector<tr::Frame> frames, std::uint64_t sent) {
    tr::CallSiteInfo s;
    s.id = static_cast<std::uint32_t>(rt.sites.size());
    s.stable_hash = hash;
    s.symbolized = std::move(frames);
    rt.sites.push_back(s);
    rt.features.push_back({1, sent, 0});
  };
  add_site(0x51, {mpi_send, {0x7f0000002100, lib, 0x2100, "bcast_binomial", "sf_pblas.c", 30}, {0x7f0000002400, lib, 0x2400, "sf_pbcast", "sf_pblas.c", 52}, entry, main_frame}, 1000);
  add_site(0x52, {mpi_send, {0x7f0000002200, lib, 0x2200, "bcast_ring", "sf_pblas.c", 41}, {0x7f0000002410, lib, 0x2410, "sf_pbcast", "sf_pblas.c", 54}, entry, main_frame}, 3000);
  add_site(0x53, {{0x7f0000001100, mpi, 0x1100, "MPI_Allreduce", "", 0}, {0x401300, app, 0x1300, "residual_norm", "dense_panel_bcast.c", 80}, main_frame}, 8);
  tr::RunTrace run;
  run.ranks.push_back(rt);

  const auto stacks = kc::samples_from_run(run, {});
  ASSERT_EQ(stacks.size(), 1u);
  EXPECT_EQ(stacks[0].observation.size(), 3u);

  kc::SiteKeying keying;
  keying.library_entry = true;
  keying.application_module = app;
  const auto entries = kc::samples_from_run(run, {}, kc::VolumeFeature::Total, keying);
  ASSERT_EQ(entries.size(), 1u);
  ASSERT_EQ(entries[0].observation.size(), 2u);
  EXPECT_EQ(entries[0].observation.at(0x53), 8.0);  // the application's own site: its stack's hash
  const auto e1 = kc::library_entry(rt.sites[0], app), e2 = kc::library_entry(rt.sites[1], app);
  ASSERT_TRUE(e1 && e2);
  EXPECT_EQ(e1->key, e2->key);
  EXPECT_EQ(e1->library, "libsf_pblas.so");
  EXPECT_EQ(e1->application_frame, 3u);
  EXPECT_EQ(entries[0].observation.at(e1->key), 4000.0);
  EXPECT_FALSE(kc::library_entry(rt.sites[2], app));
  // The same library entered from another application frame is another feature.
  tr::CallSiteInfo other = rt.sites[0];
  other.symbolized[3].offset = 0x1250;
  EXPECT_NE(kc::library_entry(other, app)->key, e1->key);
}
