// Harness plumbing of NINJA's application-centric mode: finding the system
// run's analysis (unit, synthetic records) and `scalefuzz run` ordering and
// passing it (mpi, real campaign).
#include "scalefuzz/engine/ninja_dependency.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "cli_support.hpp"

namespace fs = std::filesystem;
using scalefuzz::harness::RunRecord;
using scalefuzz::harness::RunSpec;

namespace {

RunRecord record(const fs::path& root, const std::string& id, const std::string& mode, int np, int rep,
                 bool finished, bool analysis) {
  RunRecord r;
  r.spec.run_id = id;
  r.spec.nprocs = np;
  r.spec.params = {{"count", "16"}};
  r.spec.noise.mode = scalefuzz::noise::mode_from_string(mode).value();
  r.spec.repetition = rep;
  r.dir = root / id;
  if (finished) r.outcome = scalefuzz::harness::Outcome{};
  fs::create_directories(r.dir / "ninja");
  if (analysis)
    for (int k = 0; k < np; ++k) std::ofstream(r.dir / "ninja" / (std::to_string(k) + ".analysis")) << "ninja-analysis 2\n";
  return r;
}

TEST(NinjaAnalysisFor, PicksFinishedSystemRunOfSamePointPreferringRepetition) {
  scalefuzz::e2e::TempDir tmp;
  std::vector<RunRecord> runs = {
      record(tmp.path(), "sys-r0", "system", 2, 0, true, true),
      record(tmp.path(), "sys-r1", "system", 2, 1, true, true),
      record(tmp.path(), "sys-np3", "system", 3, 1, true, true),
      record(tmp.path(), "sys-unfinished", "system", 2, 2, false, true),
      record(tmp.path(), "sys-hung", "system", 2, 3, true, false),
      record(tmp.path(), "rand", "random", 2, 1, true, true),
  };
  RunSpec app;
  app.run_id = "app-r1";
  app.nprocs = 2;
  app.params = {{"count", "16"}};
  app.noise.mode = scalefuzz::noise::Mode::Application;
  app.repetition = 1;
  EXPECT_EQ(scalefuzz::engine::ninja_analysis_for(app, runs), fs::absolute(tmp.path() / "sys-r1"));
  app.repetition = 3;  // its own repetition hung: fall back to the lowest finished one
  EXPECT_EQ(scalefuzz::engine::ninja_analysis_for(app, runs), fs::absolute(tmp.path() / "sys-r0"));
  app.params = {{"count", "32"}};
  EXPECT_FALSE(scalefuzz::engine::ninja_analysis_for(app, runs));
  EXPECT_NE(scalefuzz::engine::missing_analysis_message(app).find("app-r1"), std::string::npos);
}

TEST(NinjaAnalysisFor, ApplicationRunsAreOrderedLast) {
  std::vector<RunSpec> runs(4);
  const char* modes[] = {"application", "system", "application", "none"};
  for (int i = 0; i < 4; ++i) {
    runs[i].run_id = std::to_string(i);
    runs[i].noise.mode = scalefuzz::noise::mode_from_string(modes[i]).value();
  }
  scalefuzz::engine::order_for_ninja(runs);
  std::vector<std::string> ids;
  for (const auto& r : runs) ids.push_back(r.run_id);
  EXPECT_EQ(ids, (std::vector<std::string>{"1", "3", "0", "2"}));
}

std::string campaign(const std::string& noise) {
  return "campaign: ninja-plumbing\n"
         "app:\n"
         "  command: [\"" SCALEFUZZ_NOISE_PROG "\", \"sets\"]\n"
         "  check: exit-code\n"
         "scales: { train: [3] }\n"
         "noise:\n" + noise +
         "repetitions: 1\n"
         "timeout: 50s\n"
         "detectors: []\n"
         "scheduler: { type: local, jobs: 2 }\n";
}

// Application listed first: `scalefuzz run` still runs the system run first
// and hands its directory to the application run, which delays tag 5.
TEST(NinjaCampaign, SystemRunFeedsApplicationRun) {
  scalefuzz::e2e::TempDir tmp;
  fs::path file = tmp.path() / "c.yaml", out = tmp.path() / "out";
  scalefuzz::e2e::write_file(file, campaign("  - { mode: application }\n  - { mode: system }\n"));
  auto r = scalefuzz::e2e::run_scalefuzz({"run", file.string(), "--out", out.string()}, std::chrono::seconds(120));
  EXPECT_TRUE(r.succeeded()) << r.out << r.err;
  fs::path app_dir, sys_dir;
  for (const auto& e : fs::directory_iterator(out / "runs")) {
    std::string id = e.path().filename().string();
    if (id.find("application") != std::string::npos) app_dir = e.path();
    if (id.find("system") != std::string::npos) sys_dir = e.path();
  }
  ASSERT_FALSE(app_dir.empty());
  ASSERT_FALSE(sys_dir.empty());
  EXPECT_TRUE(scalefuzz::engine::has_ninja_analysis(sys_dir, 3));
  std::string delays = scalefuzz::e2e::read_file(app_dir / "ninja" / "0.delays");
  EXPECT_NE(delays.find(" 1 5 0 4 "), std::string::npos) << delays;  // dest 1, tag 5, world, 4 bytes
}

TEST(NinjaCampaign, ApplicationWithoutSystemRunFailsNamingIt) {
  scalefuzz::e2e::TempDir tmp;
  fs::path file = tmp.path() / "c.yaml", out = tmp.path() / "out";
  scalefuzz::e2e::write_file(file, campaign("  - { mode: application }\n"));
  auto r = scalefuzz::e2e::run_scalefuzz({"run", file.string(), "--out", out.string()}, std::chrono::seconds(120));
  EXPECT_FALSE(r.succeeded());
  EXPECT_NE(r.err.find("application-centric run np3-application-r0 needs a finished system-centric run"),
            std::string::npos)
      << r.err;
}

}  // namespace
