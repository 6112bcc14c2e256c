#include <gtest/gtest.h>

#include <tuple>

#include "scalefuzz/harness/finding_json.hpp"
#include "scalefuzz/harness/run_json.hpp"
#include "store_test_util.hpp"

namespace scalefuzz::harness {
namespace {

using nlohmann::json;

void expect_same_spec(const RunSpec& a, const RunSpec& b) {
  EXPECT_EQ(a.run_id, b.run_id);
  EXPECT_EQ(a.campaign, b.campaign);
  EXPECT_EQ(a.nprocs, b.nprocs);
  EXPECT_EQ(a.scale_role, b.scale_role);
  EXPECT_EQ(a.params, b.params);
  EXPECT_EQ(a.noise.mode, b.noise.mode);
  EXPECT_EQ(a.noise.settings, b.noise.settings);
  EXPECT_EQ(a.repetition, b.repetition);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.argv, b.argv);
  EXPECT_EQ(a.env, b.env);
  EXPECT_EQ(a.timeout, b.timeout);
  EXPECT_EQ(a.check, b.check);
  EXPECT_EQ(a.wrong_result_regex, b.wrong_result_regex);
  EXPECT_EQ(a.expected_stdout_regex, b.expected_stdout_regex);
  EXPECT_EQ(a.stall, b.stall);
}

TEST(RunJson, SpecRoundTripsThroughText) {
  const auto spec = testing::sample_spec("np4-none-r0", 4, "system", 2);
  const auto back = json::parse(json(spec).dump()).get<RunSpec>();
  expect_same_spec(spec, back);
  EXPECT_EQ(back.seed, 0xF00DFACECAFEBEEFull);
}

TEST(RunJson, SeedIsDecimalTextAndOldNumericSeedsStillRead) {
  const auto spec = testing::sample_spec("np4-none-r0", 4, "system", 2);
  json j = spec;
  EXPECT_EQ(j.at("seed"), std::to_string(0xF00DFACECAFEBEEFull));
  j["seed"] = 0xF00DFACECAFEBEEFull;  // spec.json of a store written before seeds were strings
  EXPECT_EQ(j.get<RunSpec>().seed, 0xF00DFACECAFEBEEFull);
  j["seed"] = "12x";
  EXPECT_THROW(j.get<RunSpec>(), std::exception);
}

TEST(RunJson, SpecWithoutRegexRoundTrips) {
  auto spec = testing::sample_spec("a");
  spec.wrong_result_regex.reset();
  spec.check = "exit-code";
  const auto j = json(spec);
  EXPECT_TRUE(j.at("wrong_result_regex").is_null());
  expect_same_spec(spec, j.get<RunSpec>());
}

// Issue 34 item 1: a SLURM task reads its spec back from runs.json; a
// must-match check without its regex became a launch error in every run.
TEST(RunJson, MustMatchRegexRoundTrips) {
  auto spec = testing::sample_spec("ring");
  spec.wrong_result_regex.reset();
  spec.check = "stdout-must-match";
  spec.expected_stdout_regex = "^ring ok after [0-9]+ laps$";
  const auto back = json::parse(json(spec).dump()).get<RunSpec>();
  expect_same_spec(spec, back);
  ASSERT_TRUE(back.expected_stdout_regex.has_value());
  EXPECT_EQ(*back.expected_stdout_regex, "^ring ok after [0-9]+ laps$");
}

TEST(RunJson, OutcomeRoundTripsWithStacks) {
  const auto o = testing::sample_hang(3.25);
  const auto back = json::parse(json(o).dump()).get<Outcome>();
  EXPECT_EQ(back.kind, OutcomeKind::Hang);
  EXPECT_EQ(back.exit_code, -1);
  EXPECT_EQ(back.signal, 9);
  EXPECT_EQ(back.detail, o.detail);
  EXPECT_DOUBLE_EQ(back.wall_seconds, 3.25);
  ASSERT_EQ(back.stacks.size(), 2u);
  EXPECT_EQ(back.stacks[1].rank, 1);
  EXPECT_EQ(back.stacks[1].pid, 1002);
  EXPECT_EQ(back.stacks[1].text, o.stacks[1].text);
  EXPECT_EQ(json(o).at("kind"), "hang");
}

TEST(RunJson, EveryOutcomeKindRoundTrips) {
  for (auto k : {OutcomeKind::Ok, OutcomeKind::Failed, OutcomeKind::Crashed, OutcomeKind::MpiAbort, OutcomeKind::Hang,
                 OutcomeKind::WrongResult, OutcomeKind::LaunchError}) {
    Outcome o;
    o.kind = k;
    EXPECT_EQ(json(o).get<Outcome>().kind, k) << to_string(k);
  }
}

TEST(RunJson, MalformedInputIsRejected) {
  auto j = json(testing::sample_spec("x"));
  j.erase("nprocs");
  EXPECT_THROW(j.get<RunSpec>(), json::exception);
  auto o = json(testing::sample_hang());
  o["kind"] = "exploded";
  EXPECT_THROW(o.get<Outcome>(), std::invalid_argument);
  o["kind"] = 3;
  EXPECT_THROW(o.get<Outcome>(), json::exception);
}

TEST(FindingJson, RoundTripsWithArtifactsAndDetails) {
  const detectors::Finding f{
      .detector = "pdg", .kind = "lp-task", .severity = detectors::Severity::Warning, .run_id = "np8-none-r1",
      .title = "rank 3 least progressed", .location = "main (app.c:42)", .ranks = {3, 0, 1, 2, 7},
      .details = {{"probability", 0.75}, {"states", {"a", "b"}}},
      .artifacts = {{"pdg", "text/vnd.graphviz", "digraph { a -> b }"}, {"note", "text/plain", "<&>"}}};
  const auto j = finding_to_json(f);
  EXPECT_EQ(j.at("rank_ranges"), "0-3,7");
  const auto back = finding_from_json(json::parse(j.dump()));
  // Every member but the artifacts, compared at once.
  const auto fields = [](const detectors::Finding& x) {
    return std::tie(x.detector, x.kind, x.severity, x.run_id, x.title, x.location, x.ranks, x.details);
  };
  EXPECT_EQ(fields(back), fields(f));
  ASSERT_EQ(back.artifacts.size(), 2u);
  EXPECT_EQ(back.artifacts[0].media_type, "text/vnd.graphviz");
  EXPECT_EQ(back.artifacts[1].content, "<&>");
}

TEST(FindingJson, UnknownSeverityIsRejected) {
  detectors::Finding f;
  auto j = finding_to_json(f);
  j["severity"] = "catastrophic";
  EXPECT_THROW(finding_from_json(j), std::invalid_argument);
}

}  // namespace
}  // namespace scalefuzz::harness
