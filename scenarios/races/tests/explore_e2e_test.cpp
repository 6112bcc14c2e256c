// Schedule exploration end to end (issue 30) with real mpiexec: a campaign
// with `explore:` forces the wildcard receives of each point's quiet run to
// their other senders, without noise. The racy task pool gets an Error race
// naming rank 0's receive and the two workers' sends (also when every quiet
// run of it went wrong: the forced match changes the failure); its --safe twin
// (results filed by task id) is benign, and its potential-race Warning
// becomes Info.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "scalefuzz/engine/explore_runs.hpp"

namespace {

namespace fs = std::filesystem;
using namespace scalefuzz::e2e;

std::string scenario(const std::string& name) { return (build_dir() / "scenarios" / ("races_" + name)).string(); }

std::vector<nlohmann::json> of_kind(const nlohmann::json& findings, const std::string& kind) {
  std::vector<nlohmann::json> out;
  for (const auto& f : findings)
    if (f.value("kind", "") == kind) out.push_back(f);
  return out;
}

struct CampaignRun {
  fs::path out;
  int exit_code = -1;
  nlohmann::json findings = nlohmann::json::array();
};

// `scalefuzz run` of the campaign `text` into tmp/out.
CampaignRun run_campaign(const TempDir& tmp, const std::string& text) {
  const fs::path file = tmp.path() / "c.yaml";
  CampaignRun c;
  c.out = tmp.path() / "out";
  write_file(file, text);
  auto r = run_scalefuzz({"run", file.string(), "--out", c.out.string()}, std::chrono::seconds(600));
  c.exit_code = r.exit_code;
  if (!fs::exists(c.out / "findings.json")) {
    ADD_FAILURE() << "no findings.json\n" << r.out << r.err;
    return c;
  }
  c.findings = nlohmann::json::parse(read_file(c.out / "findings.json")).at("findings");
  return c;
}

// A campaign of one scenarios/replay program at 4 ranks, its two variants,
// the check "wrong result" on stderr, explored with a budget of 12.
std::string replay_program_campaign(const std::string& program, const std::string& args, const std::string& variants) {
  return "campaign: " + program + "\napp:\n  command: [\"" + (build_dir() / "scenarios" / program).string() + "\", " +
         args + ", \"{variant}\"]\n  check: { stderr-regex: \"wrong result\" }\nscales: [4]\nparameters: { variant: " +
         variants + " }\ntimeout: 30s\ndetectors: [races]\nexplore: { budget: 12 }\n";
}

// The races findings of a campaign whose points are a racy program and its
// correct `twin` (a variant's argument): every finding at a twin's point is
// at most Info; returns the harmful-race findings of the other points.
std::vector<nlohmann::json> harmful_races_twins_clean(const nlohmann::json& findings, const std::string& twin) {
  std::vector<nlohmann::json> harmful;
  for (const auto& f : findings) {
    if (f.value("detector", "") != "races") continue;
    if (f.at("details").value("campaign_point", "").find(twin) != std::string::npos) {
      EXPECT_TRUE(f.value("severity", "") == "info" || f.value("severity", "") == "none") << f.dump();
      continue;
    }
    if (f.value("kind", "") == "harmful-race") harmful.push_back(f);
  }
  return harmful;
}

}  // namespace

TEST(ExploreE2E, CampaignKeyExploresEachPointAndDowngradesTheBenignTwinsWarnings) {
  TempDir tmp;
  const CampaignRun c = run_campaign(tmp, "campaign: pool\napp:\n  command: [\"" + scenario("task_pool") +
                       "\", \"--iterations\", \"4\", \"--on-wrong\", \"count\", \"{variant}\"]\n"
                       "  check: { stderr-regex: \"wrong match at loop\" }\n"
                       "scales: [3]\nparameters: { variant: [\"--races\", \"--safe\"] }\ntimeout: 30s\n"
                       "repetitions: 3\ndetectors: [races]\nexplore: { budget: 12 }\n");
  EXPECT_EQ(c.exit_code, 1);
  const auto& findings = c.findings;
  const fs::path& out = c.out;
  int harmful_racy = 0, undecided_racy = 0;
  for (const auto& f : findings) {
    if (f.value("detector", "") != "races") continue;
    const std::string point = f.at("details").value("campaign_point", "");
    if (point.find("--safe") != std::string::npos) {
      EXPECT_EQ(f.value("severity", ""), "info") << f.dump();
    }
    if (f.value("kind", "") == "harmful-race" && point.find("--races") != std::string::npos) ++harmful_racy;
    if (f.value("kind", "") == "undecided-race" && point.find("--races") != std::string::npos) ++undecided_racy;
    if (f.value("kind", "") == "benign-nondeterminism") {
      EXPECT_EQ(point.find("--races"), std::string::npos) << f.dump();
    }
  }
  // Harmful whether or not a quiet run of the racy point ended ok: from an
  // ok base a forced alternative changes the outcome kind; when all three
  // quiet runs went wrong (a loaded machine), a forced alternative changes
  // the failure itself (the checksum line, which two control replays of the
  // base repeat). Never undecided, never benign.
  EXPECT_EQ(harmful_racy, 1) << findings.dump(1);
  EXPECT_EQ(undecided_racy, 0) << findings.dump(1);
  for (const auto& f : of_kind(findings, "harmful-race")) {
    const auto& d = f.at("details");
    EXPECT_EQ(f.value("severity", ""), "error");
    EXPECT_EQ(d.value("receiving_rank", -1), 0);
    EXPECT_NE(d.value("receive_routine", "").find("task_pool.c"), std::string::npos) << d.dump();
    // The two workers' result sends, from the same line of the worker loop.
    const int took = d.at("base_send").value("send_rank", -1), forced = d.at("forced_send").value("send_rank", -1);
    EXPECT_TRUE((took == 1 && forced == 2) || (took == 2 && forced == 1)) << d.dump();
    if (d.value("outcome", "") == d.value("base_outcome", "")) {
      EXPECT_NE(d.value("failure_change", ""), "") << d.dump();
    }
  }
  const auto benign = of_kind(findings, "benign-nondeterminism");
  ASSERT_EQ(benign.size(), 1u) << findings.dump(1);
  EXPECT_NE(benign[0].at("details").value("campaign_point", "").find("--safe"), std::string::npos);
  for (const auto& c : of_kind(findings, "match-coverage")) EXPECT_EQ(c.at("details").value("not_tried", 99), 0) << c.dump();
  EXPECT_TRUE(fs::exists(out / "explore" / "runs")) << "forced runs kept";
}

// A task farm that files results in arrival order (scenarios/replay/
// master_worker.c): nearly every quiet run at 4 ranks ends "N results out of
// place", so exploration starts from a failing base; a forced alternative
// changes N (harmful-race, the failure depends on the match), whose offered
// replay fails again. The --safe twin files results by task id: no race
// Error or Warning.
TEST(ExploreE2E, AFarmWhoseQuietRunsAllFailGetsAHarmfulRaceFromTheChangedFailure) {
  TempDir tmp;
  const CampaignRun c = run_campaign(
      tmp, replay_program_campaign("replay_master_worker", "\"--tasks\", \"12\"", "[\"--bug\", \"--safe\"]"));
  const auto harmful = harmful_races_twins_clean(c.findings, "--safe");
  for (const auto& f : harmful) {
    const auto& d = f.at("details");
    EXPECT_EQ(d.value("receiving_rank", -1), 0) << d.dump();
    EXPECT_NE(d.value("receive_routine", "").find("master_worker.c"), std::string::npos) << d.dump();
    if (d.value("outcome", "") == d.value("base_outcome", "")) {
      EXPECT_NE(d.value("failure_change", "").find("results out of place"), std::string::npos) << d.dump();
    }
    // The offered replay of the forced run fails again.
    const auto argv = d.at("replay_argv").get<std::vector<std::string>>();
    ASSERT_EQ(argv.size(), 3u);
    auto again = run_scalefuzz({"replay", argv[2], "--times", "2"}, std::chrono::seconds(300));
    EXPECT_NE(again.out.find("reproduced 2/2"), std::string::npos) << again.out << again.err;
  }
  EXPECT_GE(harmful.size(), 1u) << c.findings.dump(1);
}

// Completion order explored like wildcard matches: rank 0 folds its
// producers' blocks in MPI_Waitany's order (scenarios/replay/
// waitany_pipeline.c). Forcing the call to return another producer's
// request first changes the outcome (harmful-race, completed by
// MPI_Waitany, either way: a quiet run that went wrong is saved by the
// producer-order return); the --sum twin, the same loop with a sum, is
// benign (info), with its alternatives explored.
TEST(ExploreE2E, WaitanyCompletionOrderIsExploredHarmfulForAFoldBenignForASum) {
  TempDir tmp;
  const CampaignRun c = run_campaign(
      tmp, replay_program_campaign("replay_waitany_pipeline", "\"--rounds\", \"3\"", "[\"--fold\", \"--sum\"]"));
  const auto& findings = c.findings;
  int harmful = 0, benign_sum = 0;
  for (const auto& f : findings) {
    if (f.value("detector", "") != "races") continue;
    const auto& d = f.at("details");
    const std::string point = d.value("campaign_point", "");
    if (point.find("--sum") != std::string::npos) {
      EXPECT_TRUE(f.value("severity", "") == "info" || f.value("severity", "") == "none") << f.dump();
      benign_sum += f.value("kind", "") == "benign-nondeterminism" ? 1 : 0;
      continue;
    }
    if (f.value("kind", "") != "harmful-race") continue;
    ++harmful;
    EXPECT_EQ(d.value("completion_call", ""), "MPI_Waitany") << d.dump();
    EXPECT_EQ(d.value("receiving_rank", -1), 0) << d.dump();
    EXPECT_NE(d.value("receive_routine", "").find("waitany_pipeline.c"), std::string::npos) << d.dump();
    EXPECT_NE(d.at("base_send").value("send_rank", -1), d.at("forced_send").value("send_rank", -1)) << d.dump();
  }
  EXPECT_GE(harmful, 1) << findings.dump(1);
  EXPECT_GE(benign_sum, 1) << findings.dump(1);
}

// A wildcard probe explored like a wildcard receive: rank 0 polls
// MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG) and receives what it reports
// (scenarios/replay/iprobe_poll.c); the bug stops at the first "done".
// Forcing the probe to report another worker's message changes the outcome
// or the failure (harmful-race at the probe's line); the --safe twin counts
// every worker's "done": no race Error or Warning.
TEST(ExploreE2E, AWildcardProbeIsExploredHarmfulForTheFirstDoneBugNotForItsTwin) {
  TempDir tmp;
  const CampaignRun c =
      run_campaign(tmp, replay_program_campaign("replay_iprobe_poll", "\"--items\", \"4\"", "[\"--bug\", \"--safe\"]"));
  const auto harmful = harmful_races_twins_clean(c.findings, "--safe");
  for (const auto& f : harmful) {
    const auto& d = f.at("details");
    EXPECT_NE(d.value("receive_routine", "").find("iprobe_poll.c:49"), std::string::npos) << d.dump();
    EXPECT_EQ(d.value("receiving_rank", -1), 0) << d.dump();
  }
  EXPECT_GE(harmful.size(), 1u) << c.findings.dump(1);
}

// Programs whose wildcard order is set by a compute imbalance of 10 ms
// (scenarios/races: a tree of partial results over an uneven decomposition,
// two halo phases over a load gradient, a slow checkpoint rank that always
// answers last): their quiet runs end ok, and exploration alone, without
// noise, forces the late sender into the early receive: a harmful race at
// the program's receive. Their twins, the same wildcard receives placing
// each message by MPI_SOURCE, get no race Error or Warning.
TEST(ExploreE2E, ComputeImbalancedProgramsGetAHarmfulRaceFromExplorationTheirTwinsNone) {
  TempDir tmp;
  const CampaignRun c = run_campaign(
      tmp, "campaign: imbalance\napp:\n  command: [\"" + (build_dir() / "scenarios").string() +
               "/races_{program}\", \"--iterations\", \"3\", \"--on-wrong\", \"count\", \"{variant}\"]\n"
               "  check: { stderr-regex: \"wrong match at loop\" }\n"
               "scales: [4]\nparameters: { program: [tree_reduce, halo_phases, slow_last], variant: [\"--races\", "
               "\"--safe\"] }\ntimeout: 30s\ndetectors: [races]\nexplore: { budget: 8 }\n");
  std::map<std::string, int> harmful;
  for (const auto& f : harmful_races_twins_clean(c.findings, "--safe")) {
    const auto& d = f.at("details");
    const std::string point = d.value("campaign_point", "");
    for (const std::string program : {"tree_reduce", "halo_phases", "slow_last"})
      if (point.find(program) != std::string::npos) {
        ++harmful[program];
        EXPECT_NE(d.value("receive_routine", "").find(program + ".c"), std::string::npos) << d.dump();
        EXPECT_NE(d.at("base_send").value("send_rank", -1), d.at("forced_send").value("send_rank", -1)) << d.dump();
      }
  }
  for (const std::string program : {"tree_reduce", "halo_phases", "slow_last"})
    EXPECT_GE(harmful[program], 1) << program << "\n" << c.findings.dump(1);
}

namespace {

// A campaign's runs and its one exploration record, for the coverage
// feedback tests below: each run's wildcard match tuples (read from its
// trace), which runs were quiet, and the record.
using Tuple = std::tuple<int, std::uint64_t, int, std::uint64_t, std::int32_t>;
struct ExploredCampaign {
  std::map<std::string, std::set<Tuple>> tuples;  // by campaign run
  std::map<std::string, fs::path> dirs;
  std::set<std::string> quiet;
  std::set<std::string> bases;  // runs that forced runs started from
  nlohmann::json record;
};

Tuple tuple_json(const nlohmann::json& receive, const nlohmann::json& send) {
  return {receive.at("receive_rank").get<int>(), receive.at("receive_site_hash").get<std::uint64_t>(),
          send.at("send_rank").get<int>(), send.at("send_site_hash").get<std::uint64_t>(), send.at("tag").get<std::int32_t>()};
}

ExploredCampaign read_explored(const fs::path& out) {
  ExploredCampaign c;
  for (const auto& entry : fs::directory_iterator(out / "runs")) {
    const auto spec = nlohmann::json::parse(read_file(entry.path() / "spec.json"));
    const std::string id = spec.at("run_id").get<std::string>();
    c.dirs[id] = entry.path();
    if (spec.at("noise").at("mode").get<std::string>() == "none") c.quiet.insert(id);
    auto& tuples = c.tuples[id];
    for (const auto& m : scalefuzz::engine::read_explore_base(entry.path(), id).matches)
      tuples.insert({m.recv_rank, m.recv_site_hash, m.send_rank, m.send_site_hash, m.tag});
  }
  std::vector<fs::path> records;
  for (const auto& entry : fs::directory_iterator(out / "explore"))
    if (entry.path().extension() == ".json") records.push_back(entry.path());
  EXPECT_EQ(records.size(), 1u);
  if (records.empty()) return c;
  c.record = nlohmann::json::parse(read_file(records[0]));
  for (const auto& e : c.record.at("explored")) c.bases.insert(e.at("base_run").get<std::string>());
  return c;
}

// Forced from the campaign's runs (depth 1), the alternatives whose tuple no
// run had produced (no campaign run, base or not, no earlier forced run)
// and no earlier forcing had tried come before all others.
void expect_unknown_tuples_first(const ExploredCampaign& c) {
  std::map<std::string, std::vector<Tuple>> produced;  // forced run -> tuples it was first to produce
  for (const auto& m : c.record.at("forced_matches")) produced[m.at("run").get<std::string>()].push_back(tuple_json(m, m));
  std::set<Tuple> seen, tried;
  for (const auto& [id, tuples] : c.tuples) seen.insert(tuples.begin(), tuples.end());
  bool known_forced = false;
  std::size_t depth_one = 0;
  for (const auto& e : c.record.at("explored")) {
    if (!c.tuples.count(e.at("base_run").get<std::string>())) continue;
    ++depth_one;
    const Tuple t = tuple_json(e.at("receive"), e.at("forced"));
    const bool unknown = !seen.count(t) && !tried.count(t);
    if (unknown) {
      EXPECT_FALSE(known_forced) << "an alternative no run had produced, forced after a known one:\n" << c.record.dump(1);
    }
    known_forced = known_forced || !unknown;
    tried.insert(t);
    for (const auto& p : produced[e.at("run").get<std::string>()]) seen.insert(p);
  }
  EXPECT_GT(depth_one, 0u) << c.record.dump(1);
}

}  // namespace

// Coverage feedback between noise and exploration on real runs (issue 30):
// races_first_answer --safe, worker w answering (w-1) x 20 ms after worker
// 1, so quiet runs take worker 1's answer at the first receive line; random
// noise of up to 100 ms a call reorders the answers. A noise run whose
// matches show a tuple no quiet run had is a base: forced runs start from
// it; and the alternatives no run had produced are forced first.
TEST(ExploreE2E, ANoiseRunWithNewTuplesIsABaseOfTheExploration) {
  TempDir tmp;
  const CampaignRun run = run_campaign(
      tmp, "campaign: feedback\napp:\n  command: [\"" + scenario("first_answer") +
               "\", \"--iterations\", \"4\", \"--skew-us\", \"20000\", \"--safe\"]\n"
               "  check: { stderr-regex: \"wrong match at loop\" }\n"
               "scales: [4]\nnoise: [{ mode: none }, { mode: random, probability: 0.5, delay: 100ms }]\n"
               "repetitions: 2\ntimeout: 60s\ndetectors: [races]\nexplore: { budget: 30 }\n");
  const ExploredCampaign c = read_explored(run.out);
  ASSERT_EQ(c.tuples.size(), 4u);
  expect_unknown_tuples_first(c);
  std::set<Tuple> quiet_tuples;
  for (const auto& id : c.quiet) quiet_tuples.insert(c.tuples.at(id).begin(), c.tuples.at(id).end());
  std::set<std::string> fresh_noise;
  for (const auto& [id, tuples] : c.tuples)
    for (const auto& t : tuples)
      if (!c.quiet.count(id) && !quiet_tuples.count(t)) fresh_noise.insert(id);
  if (fresh_noise.empty()) GTEST_SKIP() << "no noise run produced a tuple the quiet runs lacked (nothing to test)";
  bool noise_base = false;
  for (const auto& id : fresh_noise) noise_base = noise_base || c.bases.count(id) > 0;
  EXPECT_TRUE(noise_base) << "noise runs with new tuples, none a base; bases: " << nlohmann::json(c.bases).dump()
                          << "\n" << c.record.dump(1);
}

// The tuples of runs that are not bases count as seen: quiet runs of
// races_first_answer --safe without skew (a round's first answer can be any
// worker's), one round, two runs: the first is the only base, and an
// alternative it offers that only the other run produced is forced after
// those no run produced. A campaign can tell when the base offers such an
// alternative before an unknown one (exploration's order otherwise): that
// depends on the runs' orders, so up to eight campaigns until one can
// (each checked).
TEST(ExploreE2E, TheTuplesOfRunsThatAreNotBasesCountAsSeen) {
  bool told = false;
  std::string last;
  for (int attempt = 0; attempt < 8 && !told; ++attempt) {
    TempDir tmp;
    const CampaignRun run = run_campaign(
        tmp, "campaign: seen\napp:\n  command: [\"" + scenario("first_answer") +
                 "\", \"--iterations\", \"1\", \"--skew-us\", \"0\", \"--safe\"]\n"
                 "  check: { stderr-regex: \"wrong match at loop\" }\n"
                 "scales: [4]\nrepetitions: 2\ntimeout: 60s\ndetectors: [races]\nexplore: { budget: 30 }\n");
    const ExploredCampaign c = read_explored(run.out);
    ASSERT_EQ(c.tuples.size(), 2u);
    ASSERT_EQ(c.bases.size(), 1u) << c.record.dump(1);  // every run ok: the first quiet run only
    expect_unknown_tuples_first(c);
    // Could this campaign tell: the base offered a tuple only the other run
    // produced, and one no run produced?
    const std::string base = *c.bases.begin();
    std::set<Tuple> others, all;
    for (const auto& [id, tuples] : c.tuples) {
      all.insert(tuples.begin(), tuples.end());
      if (id != base) others.insert(tuples.begin(), tuples.end());
    }
    // In the base's order of alternatives (exploration's order within a
    // class): one only the other run produced, then one no run produced.
    bool offered_other = false, offered_unknown = false;
    for (const auto& w : scalefuzz::engine::read_explore_base(c.dirs.at(base), base).wildcards)
      for (const auto& a : w.alternatives) {
        const Tuple t{w.actual.recv_rank, w.actual.recv_site_hash, a.send_rank, a.send_site_hash, a.tag};
        offered_other = offered_other || (others.count(t) && !c.tuples.at(base).count(t));
        offered_unknown = offered_unknown || (offered_other && !all.count(t));
      }
    told = offered_other && offered_unknown;
    last = "offered a tuple of the other run: " + std::to_string(offered_other) +
           ", an unknown one after it: " + std::to_string(offered_unknown);
  }
  if (!told) GTEST_SKIP() << "in eight campaigns the two runs never differed so that the order shows (" << last << ")";
}
