#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "scalefuzz/detectors/kcca/kcca.hpp"
#include "scalefuzz/detectors/kcca/synthetic.hpp"

namespace kc = scalefuzz::detectors::kcca;
namespace fs = std::filesystem;

TEST(ModelIo, SaveLoadRoundTripScoresIdentically) {
  const auto dir = fs::temp_directory_path() / ("kcca-io-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  kc::SyntheticSpec spec;
  spec.jitter = 0.02;
  for (const auto solver : {kc::SolverKind::Exact, kc::SolverKind::LowRank}) {
    kc::KccaOptions o;
    o.solver = solver;
    o.low_rank_max_rank = 30;
    kc::KccaModel m = kc::train(kc::synthetic_allgather(spec), {"rank", "nprocs", "count"}, o);
    kc::SiteProfile site;
    site.stable_hash = 42;
    site.share = 0.9;
    site.frames.push_back({0x1234, "/bin/app", 0x34, "main", "app.c", 7});
    m.reference_profile.sites.push_back(site);
    m.reference_profile.runs = 3;
    const std::string path = (dir / "model.json").string();
    kc::save_model(m, path);
    const kc::KccaModel back = kc::load_model(path);
    EXPECT_EQ(back.solver_used, m.solver_used);
    EXPECT_EQ(back.control_names, m.control_names);
    EXPECT_EQ(back.feature_keys, m.feature_keys);
    EXPECT_EQ(back.threshold, m.threshold);
    EXPECT_EQ(back.training_scales, m.training_scales);
    EXPECT_EQ(back.training_scores.size(), m.training_scores.size());
    ASSERT_EQ(back.reference_profile.sites.size(), 1u);
    EXPECT_EQ(back.reference_profile.sites[0].frames[0].function, "main");
    EXPECT_EQ(back.reference_profile.runs, 3);
    kc::SyntheticSpec test = spec;
    test.scales = {16, 24};
    test.bug_from = 16;
    const auto samples = kc::synthetic_allgather(test);
    const auto a = kc::score(m, samples), b = kc::score(back, samples);
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].correlation, b[i].correlation);  // doubles written with round-trip precision
      EXPECT_EQ(a[i].flagged, b[i].flagged);
    }
  }
  std::ofstream(dir / "bad.json") << "{\"format\":\"something-else\"}";
  EXPECT_THROW(kc::load_model((dir / "bad.json").string()), std::runtime_error);
  std::ofstream(dir / "trunc.json") << "{\"format\":\"scalefuzz-kcca-model\",";
  EXPECT_THROW(kc::load_model((dir / "trunc.json").string()), std::runtime_error);
  EXPECT_THROW(kc::load_model((dir / "missing.json").string()), std::runtime_error);
  fs::remove_all(dir);
}
