#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "hashing.hpp"
#include "template.hpp"
#include "test_support.hpp"

namespace scalefuzz::harness {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;
using testing::data_dir;
using testing::parse;

std::vector<RunSpec> full_runs() {
  return expand_campaign(load_campaign(data_dir() / "good/full.yaml", LoadOptions{"/opt/sf-build", scalefuzz::analysis::detector_names()}));
}

TEST(ExpandCampaign, CountIsTheProductOfTheMatrix) {
  // 3 scales x (2 counts x 2 modes) x 5 noise profiles x 3 repetitions.
  EXPECT_EQ(full_runs().size(), 3u * 4u * 5u * 3u);
  EXPECT_EQ(expand_campaign(parse("campaign: t\napp: { command: [x] }\nscales: [2, 3]\n")).size(), 2u);
}

TEST(ExpandCampaign, OrderIsTrainThenTestThenParametersNoiseRepetitions) {
  auto runs = full_runs();
  EXPECT_EQ(runs.front().run_id, "np4-count256-modefast-none-r0");
  EXPECT_EQ(runs[1].run_id, "np4-count256-modefast-none-r1");
  EXPECT_EQ(runs[3].run_id,
            "np4-count256-modefast-system-bandwidth3.14GBps-latency250ns-packet_size4096-scale1.2-threshold8-r0");
  EXPECT_EQ(runs[6].run_id, "np4-count256-modefast-random-delay10us-probability0.25-r0");
  EXPECT_EQ(runs[9].run_id, "np4-count256-modefast-application-scale2-r0");
  EXPECT_EQ(runs[12].run_id, "np4-count256-modefast-local-delay1500us-r0");
  EXPECT_EQ(runs[15].run_id, "np4-count256-modesafe-none-r0");  // last parameter varies fastest
  EXPECT_EQ(runs[30].run_id, "np4-count512-modefast-none-r0");
  EXPECT_EQ(runs.back().run_id, "np8-count512-modesafe-local-delay1500us-r2");
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].scale_role, i < 120 ? "train" : "test") << i;
    EXPECT_EQ(runs[i].nprocs, i < 60 ? 4 : i < 120 ? 5 : 8) << i;
    EXPECT_EQ(runs[i].repetition, static_cast<int>(i % 3)) << i;
    EXPECT_EQ(runs[i].campaign, "allgather-scale");
  }
}

TEST(ExpandCampaign, IdsAreUniqueFilesystemSafeAndStable) {
  auto first = full_runs();
  auto second = full_runs();
  std::set<std::string> ids;
  const std::regex safe("[A-Za-z0-9._+-]+");
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_TRUE(std::regex_match(first[i].run_id, safe)) << first[i].run_id;
    EXPECT_LE(first[i].run_id.size(), 100u);
    EXPECT_EQ(first[i].run_id, second[i].run_id);
    ids.insert(first[i].run_id);
  }
  EXPECT_EQ(ids.size(), first.size());
}

TEST(ExpandCampaign, SeedsAreDeterministicDistinctAndFollowTheCampaignSeed) {
  auto runs = full_runs();
  std::set<std::uint64_t> seeds;
  for (const auto& run : runs) {
    EXPECT_EQ(run.seed, derive_run_seed(0xdeadbeef, run.run_id));
    seeds.insert(run.seed);
  }
  EXPECT_EQ(seeds.size(), runs.size());
  const std::string yaml = "campaign: t\napp: { command: [x] }\nscales: [2]\n";
  auto with_default = expand_campaign(parse(yaml));
  auto with_seed = expand_campaign(parse(yaml + "seed: 7\n"));
  EXPECT_EQ(with_default[0].run_id, with_seed[0].run_id);
  EXPECT_NE(with_default[0].seed, with_seed[0].seed);
  EXPECT_EQ(with_seed[0].seed, derive_run_seed(7, "np2-none-r0"));
}

TEST(ExpandCampaign, StallPointsComeFromTheRunSeedAndCoverEveryRank) {
  const std::string head = "campaign: t\napp: { command: [x] }\nscales: [8]\nrepetitions: 400\n";
  for (const auto& r : expand_campaign(parse(head))) EXPECT_FALSE(r.stall.has_value()) << r.run_id;
  const auto runs = expand_campaign(parse(head + "stall: { enabled: true, calls: 5 }\n"));
  std::set<int> ranks;
  std::set<long> calls;
  for (const auto& r : runs) {
    const StallPoint at = stall_point(r.seed, r.nprocs, 5);
    ASSERT_TRUE(r.stall.has_value()) << r.run_id;
    EXPECT_EQ(r.stall->rank, at.rank);
    EXPECT_EQ(r.stall->call, at.call);
    ranks.insert(at.rank);
    calls.insert(at.call);
  }
  EXPECT_EQ(ranks, (std::set<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(calls, (std::set<long>{1, 2, 3, 4, 5}));
  EXPECT_EQ(stall_point(42, 8, 5).rank, stall_point(42, 8, 5).rank);  // deterministic
  EXPECT_EQ(stall_point(42, 1, 1).rank, 0);
  EXPECT_EQ(stall_point(42, 1, 1).call, 1);
}

TEST(ExpandCampaign, SeedDerivationIsSplitmixOverFnv1a) {
  // Published reference values of both functions.
  EXPECT_EQ(detail::fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(detail::fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(detail::splitmix64(0), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(derive_run_seed(5, "np2-none-r0"), detail::splitmix64(5 ^ detail::fnv1a64("np2-none-r0")));
}

TEST(ExpandCampaign, InterpolatesArgvAndEnv) {
  auto runs = full_runs();
  const RunSpec& run = runs[60 + 15 + 3 + 2];  // np5, count256, modesafe, system, rep 2
  ASSERT_EQ(run.run_id,
            "np5-count256-modesafe-system-bandwidth3.14GBps-latency250ns-packet_size4096-scale1.2-threshold8-r2");
  const std::string dir = (data_dir() / "good").lexically_normal().string();
  EXPECT_THAT(run.argv,
              ElementsAre("/opt/sf-build/scenarios/allgather_overflow", "--count", "256", "--mode=safe",
                          "--seed", std::to_string(run.seed), "--np", "5", "--rep", "2", "--in",
                          dir + "/input.txt", "--json={\"n\": 5}"));
  EXPECT_THAT(run.env, ElementsAre(Pair("APP_TAG", "safe-256"), Pair("OMP_NUM_THREADS", "1")));
  EXPECT_EQ(run.noise.mode, noise::Mode::System);
  EXPECT_EQ(run.noise.settings.at("latency"), "250");
  EXPECT_EQ(run.timeout, std::chrono::milliseconds(90'000));
  EXPECT_EQ(run.check, "stdout-regex");
  EXPECT_EQ(run.wrong_result_regex, "MISMATCH at [0-9]+");
  EXPECT_FALSE(run.expected_stdout_regex.has_value());
}

TEST(ExpandCampaign, StderrAndOutputChecksAreCarriedIntoTheRun) {
  auto runs = expand_campaign(parse(R"(campaign: t
app: { command: [x], check: { stderr-regex: "wrong match" } }
scales: [2]
noise: [{ mode: system, overhead: 10us }]
)"));
  EXPECT_EQ(runs[0].check, "stderr-regex");
  EXPECT_EQ(runs[0].wrong_result_regex, "wrong match");
  EXPECT_EQ(runs[0].noise.settings.at("overhead"), "10000");  // the overhead knob, in ns
  runs = expand_campaign(parse(R"(campaign: t
app: { command: [x], check: { output-must-match: "^done" } }
scales: [2]
)"));
  EXPECT_EQ(runs[0].check, "output-must-match");
  EXPECT_EQ(runs[0].expected_stdout_regex, "^done");
}

TEST(ExpandCampaign, MustMatchCheckIsCarriedIntoTheRun) {
  auto runs = expand_campaign(parse(R"(campaign: t
app: { command: [x], check: { stdout-must-match: "sum=42" } }
scales: [2]
)"));
  EXPECT_EQ(runs[0].check, "stdout-must-match");
  EXPECT_EQ(runs[0].expected_stdout_regex, "sum=42");
  EXPECT_FALSE(runs[0].wrong_result_regex.has_value());
}

TEST(ExpandCampaign, UnsafeParameterValuesGetAHashSuffix) {
  auto runs = expand_campaign(parse(R"(campaign: t
app: { command: [x, "{input}"] }
scales: [2]
parameters: { input: ["a/b", "a_b", "a b", "", "plain-1.5e+3"] }
)"));
  ASSERT_EQ(runs.size(), 5u);
  const std::regex hashed(R"(np2-inputa_b-none-r0-h[0-9a-f]{8})");
  EXPECT_TRUE(std::regex_match(runs[0].run_id, hashed)) << runs[0].run_id;
  EXPECT_EQ(runs[1].run_id, "np2-inputa_b-none-r0");  // already safe: no suffix
  EXPECT_TRUE(std::regex_match(runs[2].run_id, hashed)) << runs[2].run_id;
  EXPECT_TRUE(std::regex_match(runs[3].run_id, std::regex(R"(np2-input_-none-r0-h[0-9a-f]{8})")))
      << runs[3].run_id;
  EXPECT_EQ(runs[4].run_id, "np2-inputplain-1.5e+3-none-r0");
  std::set<std::string> ids;
  for (const auto& run : runs) ids.insert(run.run_id);
  EXPECT_EQ(ids.size(), runs.size());
  EXPECT_EQ(runs[2].argv[1], "a b");  // the value itself is untouched
}

TEST(ExpandCampaign, CoincidingReadableIdsAreToldApartByHash) {
  // a="1-b2", b="3" and a="1", b="2-b3" both read "np2-a1-b2-b3-none-r0".
  auto runs = expand_campaign(parse(R"(campaign: t
app: { command: [x] }
scales: [2]
parameters: { a: ["1-b2", "1"], b: ["3", "2-b3"] }
)"));
  ASSERT_EQ(runs.size(), 4u);
  const std::regex hashed(R"(np2-a1-b2-b3-none-r0-h[0-9a-f]{8})");
  EXPECT_TRUE(std::regex_match(runs[0].run_id, hashed)) << runs[0].run_id;  // a=1-b2, b=3
  EXPECT_EQ(runs[1].run_id, "np2-a1-b2-b2-b3-none-r0");
  EXPECT_EQ(runs[2].run_id, "np2-a1-b3-none-r0");
  EXPECT_TRUE(std::regex_match(runs[3].run_id, hashed)) << runs[3].run_id;  // a=1, b=2-b3
  EXPECT_NE(runs[0].run_id, runs[3].run_id);
}

TEST(ExpandCampaign, LongIdsAreTruncatedWithAHash) {
  std::string long_a(120, 'a');
  std::string long_b = long_a + "b";
  auto runs = expand_campaign(parse("campaign: t\napp: { command: [x] }\nscales: [2]\n"
                                    "parameters: { name: [" + long_a + ", " + long_b + "] }\n"));
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_NE(runs[0].run_id, runs[1].run_id);
  for (const auto& run : runs) {
    EXPECT_LE(run.run_id.size(), 100u);
    EXPECT_TRUE(std::regex_match(run.run_id, std::regex("np2-nameaaa+-h[0-9a-f]{8}"))) << run.run_id;
  }
}

TEST(ExpandCampaign, NoiseLabels) {
  NoiseSpec none;
  EXPECT_EQ(none.label(), "none");
  NoiseSpec random{noise::Mode::Random, {{"probability", "0.5"}, {"delay", "2000000"}}};
  EXPECT_EQ(random.label(), "random-delay2ms-probability0.5");
  NoiseSpec system{noise::Mode::System, {{"bandwidth", "100000000"}, {"latency", "1500"}}};
  EXPECT_EQ(system.label(), "system-bandwidth100MBps-latency1500ns");
}

TEST(Template, PlaceholdersAndEscapes) {
  EXPECT_THAT(detail::template_placeholders("{a}-{b_2}{{c}}"), ElementsAre("a", "b_2"));
  EXPECT_EQ(detail::expand_template("{{{x}}}", {{"x", "1"}}), "{1}");
  EXPECT_EQ(detail::expand_template("a}b", {}), "a}b");  // a lone } is literal
  EXPECT_EQ(detail::expand_template("--n={n}", {{"n", "8"}}), "--n=8");
  EXPECT_THROW(detail::template_placeholders("{a"), detail::TemplateError);
  EXPECT_THROW(detail::template_placeholders("{}"), detail::TemplateError);
  EXPECT_THROW(detail::template_placeholders("{a b}"), detail::TemplateError);
  EXPECT_THROW(detail::expand_template("{a}", {}), detail::TemplateError);
}

TEST(ExpandCampaign, RefusesAnAbsurdMatrix) {
  std::string values;
  for (int i = 0; i < 101; ++i) values += (i ? ", " : "") + std::to_string(i);
  std::string yaml = "campaign: t\napp: { command: [x] }\nscales: [2]\nparameters:\n";
  for (const char* name : {"a", "b", "c"}) yaml += std::string("  ") + name + ": [" + values + "]\n";
  EXPECT_THROW(expand_campaign(parse(yaml)), CampaignError);
}

}  // namespace
}  // namespace scalefuzz::harness
