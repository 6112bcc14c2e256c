// End to end on scenarios/races with real mpiexec: honest outcomes (MPI_Abort
// with code 0, checks on stderr, exec --check), the races detector by
// instance and its potential-race Warnings, and `scalefuzz reproduce` with
// its replay command.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <map>
#include <regex>

#include "cli_support.hpp"

namespace {

namespace fs = std::filesystem;
using namespace scalefuzz::e2e;  // TempDir, run_scalefuzz, read_file, ...

std::string scenario(const std::string& name) { return (build_dir() / "scenarios" / ("races_" + name)).string(); }

nlohmann::json findings_of(const fs::path& out) {
  return nlohmann::json::parse(read_file(out / "findings.json")).at("findings");
}

// The last worker starts 200 ms late and rank 0 releases the others early:
// the wrong match happens in loop 0 of every run, and the program aborts
// with MPI_Abort(MPI_COMM_WORLD, 0) after printing it on stderr.
std::vector<std::string> late_starter(const std::string& on_wrong) {
  return {"mpiexec", "-n", "3", scenario("cross_iteration_race"), "--iterations", "5", "--slow-first-us", "200000",
          "--on-wrong", on_wrong};
}

// Per run of a campaign counting its wrong matches: did the program see one
// (stderr), and did the races detector report an Error for that run.
struct RunVerdict {
  std::string id;
  bool safe = false, wrong = false, error = false;
};
std::vector<RunVerdict> verdicts(const fs::path& out, const nlohmann::json& findings) {
  std::vector<RunVerdict> v;
  for (const auto& run : fs::directory_iterator(out / "runs")) {
    RunVerdict r;
    r.id = run.path().filename().string();
    r.safe = r.id.find("safe") != std::string::npos;
    r.wrong = read_file(run.path() / "stderr.txt").find("wrong match at loop") != std::string::npos;
    for (const auto& f : findings)
      if (f.value("run_id", "") == r.id && f.value("kind", "") == "unintended-match" &&
          f.value("severity", "") == "error")
        r.error = true;
    v.push_back(r);
  }
  return v;
}

// A campaign of one races scenario and its safe twin ({variant}: --races,
// --safe) that counts wrong matches on stderr, `repetitions` per point.
std::string twin_campaign(const std::string& name, const std::string& command, int ranks, const std::string& noise,
                          int repetitions = 2) {
  return "campaign: " + name + "\napp:\n  command: [" + command + ", \"--on-wrong\", \"count\", \"{variant}\"]\n" +
         "  check: { stderr-regex: \"wrong match at loop\" }\n" + "scales: [" + std::to_string(ranks) + "]\n" +
         "parameters: { variant: [\"--races\", \"--safe\"] }\n" + "noise: " + noise + "\n" +
         "repetitions: " + std::to_string(repetitions) + "\ntimeout: 60s\ndetectors: [races]\n";
}

// Runs `yaml` with `scalefuzz run --out OUT --build BUILD`; its findings.json
// must exist. Call it inside ASSERT_NO_FATAL_FAILURE.
void run_campaign(const TempDir& tmp, const std::string& yaml, const fs::path& out, std::chrono::seconds timeout) {
  const fs::path file = tmp.path() / "campaign.yaml";
  write_file(file, yaml);
  auto r = run_scalefuzz({"run", file.string(), "--out", out.string(), "--build", build_dir().string()}, timeout);
  ASSERT_TRUE(fs::exists(out / "findings.json")) << r.out << r.err;
}

// The verdicts of the racy program's runs; the safe twin's runs must have
// seen no wrong match and have no Error.
std::vector<RunVerdict> racy_verdicts(const fs::path& out, const nlohmann::json& findings) {
  std::vector<RunVerdict> racy;
  for (const RunVerdict& v : verdicts(out, findings)) {
    if (!v.safe) {
      racy.push_back(v);
      continue;
    }
    EXPECT_FALSE(v.wrong) << v.id;
    EXPECT_FALSE(v.error) << v.id << " (safe twin)";
  }
  return racy;
}

// A textbook race campaign (counting its wrong matches, so that the system
// runs finish and write the analysis the application runs read), modes
// none, system, application, `repetitions` runs each, and its safe twin:
// every run whose program saw a wrong match has an Error race finding naming
// instances; a potential-race Warning on the racy program, none on the safe
// twin; the safe twin has no wrong match and no Error in any mode. Returns
// how many racy runs of each mode went wrong.
std::map<std::string, int> check_textbook_race(const std::string& name, const std::string& command, int repetitions) {
  TempDir tmp;
  const fs::path out = tmp.path() / "out";
  std::map<std::string, int> wrong_by_mode;
  const std::string noise = "[{ mode: none }, { mode: system }, { mode: application }]";
  run_campaign(tmp, twin_campaign(name, command, 4, noise, repetitions), out, std::chrono::seconds(390));
  if (::testing::Test::HasFatalFailure()) return wrong_by_mode;
  const auto findings = findings_of(out);
  int potential_racy = 0;
  for (const auto& [id, safe, wrong, error] : racy_verdicts(out, findings)) {
    if (!wrong) continue;
    for (const char* mode : {"none", "system", "application"})
      if (id.find(std::string("-") + mode + "-") != std::string::npos) ++wrong_by_mode[mode];
    EXPECT_TRUE(error) << id << ": the program saw a wrong match, the detector did not";
  }
  for (const auto& f : findings) {
    if (f.value("kind", "") != "potential-race") continue;
    EXPECT_EQ(f.value("severity", ""), "warning");
    EXPECT_EQ(f.at("details").value("campaign_point", "").find("safe"), std::string::npos) << f.dump();
    ++potential_racy;
  }
  EXPECT_GE(potential_racy, 1) << "no potential-race Warning on the textbook race's quiet runs";
  return wrong_by_mode;
}

}  // namespace

TEST(RacesE2E, ShippedCampaignFilesLoadAndExpand) {
  TempDir tmp;
  for (const char* name : {"races_matching.yaml", "races_same_site.yaml", "races_cross_iteration.yaml",
                           "races_benign_wildcard.yaml"}) {
    const fs::path file = source_dir() / "configs" / "scenarios" / name;
    auto r = run_scalefuzz({"run", file.string(), "--dry-run", "--out", (tmp.path() / name).string()});
    EXPECT_EQ(r.exit_code, 0) << name << r.out << r.err;
    EXPECT_NE(r.out.find("--safe"), std::string::npos) << name;
  }
}

TEST(RacesE2E, AbortWithCodeZeroIsMpiAbortWithRankCodeAndCallSite) {
  TempDir tmp;
  std::vector<std::string> args = {"exec", "--out", (tmp.path() / "abort").string(), "--timeout", "60s", "--"};
  for (const auto& a : late_starter("abort")) args.push_back(a);
  auto r = run_scalefuzz(args, std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("outcome: mpi-abort (rank 0 called MPI_Abort with error code 0 at "), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(error code 0 at \S+ \(\S+/scenarios/races/\S+\.[ch]:[0-9]+\))")))
      << "the call site names the scenario's file and line: " << r.out;
  EXPECT_NE(r.out.find("mpiexec exit code 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("seed: "), std::string::npos) << r.out;
}

TEST(RacesE2E, ExecCheckReadsStderrStdoutOrBoth) {
  TempDir tmp;
  auto exec_with = [&](const std::string& check, const std::string& on_wrong) {
    std::vector<std::string> args = {"exec", "--out", (tmp.path() / "x").string(), "--timeout", "60s", "--check", check, "--"};
    for (const auto& a : late_starter(on_wrong)) args.push_back(a);
    return run_scalefuzz(args, std::chrono::seconds(120));
  };
  // Counting mode: exit code 0, the wrong match only on stderr.
  auto r = exec_with("stderr-regex=wrong match at loop", "count");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("outcome: wrong-result (stderr line"), std::string::npos) << r.out;
  r = exec_with("stdout-must-match=^wrong_matches=0$", "count");
  EXPECT_NE(r.out.find("outcome: wrong-result (no stdout line matches"), std::string::npos) << r.out;
  r = exec_with("output-regex=wrong_matches=[1-9]", "count");
  EXPECT_NE(r.out.find("outcome: wrong-result (stdout line"), std::string::npos) << r.out;
  r = exec_with("stdout-regex=no such line", "count");  // a check that passes
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(exec_with("stdout-regex=(", "count").exit_code, 2);  // invalid regex: usage error
  EXPECT_EQ(exec_with("stdin-regex=x", "count").exit_code, 2);
}

TEST(RacesE2E, AbortCampaignExitsOneWithAJunitFailure) {
  TempDir tmp;
  const fs::path file = tmp.path() / "abort.yaml";
  write_file(file, "campaign: races_abort0\n"
                   "app:\n"
                   "  command: [\"{build}/scenarios/races_cross_iteration_race\", \"--iterations\", \"5\", "
                   "\"--slow-first-us\", \"200000\"]\n"
                   "  check: { stderr-regex: \"wrong match at loop\" }\n"
                   "scales: [3]\n"
                   "noise: [{ mode: none }]\n"
                   "timeout: 60s\n"
                   "detectors: [races]\n");
  const fs::path out = tmp.path() / "out";
  auto r = run_scalefuzz({"run", file.string(), "--out", out.string(), "--build", build_dir().string()},
                         std::chrono::seconds(170));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const std::string junit = read_file(out / "junit.xml");
  EXPECT_NE(junit.find("type=\"mpi-abort\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("error code 0"), std::string::npos) << junit;
}

// The all-to-all variant (4 exchanges a loop, no compute): system or
// application noise exposes it in at least one of their 4 runs.
TEST(RacesE2E, TextbookRaceFoundByInstanceAndAsAPotentialRace) {
  auto wrong = check_textbook_race("races_textbook",
                                   R"("{build}/scenarios/races_same_site_race", "--iterations", "30")", 2);
  EXPECT_GT(wrong["system"] + wrong["application"], 0) << "neither system nor application noise exposed the race";
}

// The cross-iteration race goes wrong in every run, quiet ones included (the
// late starter makes loop 0 wrong), so no quiet run can say what the right
// matching is: the detector finds it from each run alone (a round of rank
// 0's receives took two results of one worker, the second sent in answer to
// the release rank 0 sent after posting them). The safe twin: no Error.
TEST(RacesE2E, CrossIterationRaceFoundWithoutACorrectQuietRun) {
  TempDir tmp;
  const fs::path out = tmp.path() / "out";
  ASSERT_NO_FATAL_FAILURE(run_campaign(tmp,
                                       twin_campaign("races_cross",
                                                     R"("{build}/scenarios/races_cross_iteration_race", )"
                                                     R"("--iterations", "20", "--slow-first-us", "200000")",
                                                     3, "[{ mode: none }]"),
                                       out, std::chrono::seconds(170)));
  const auto findings = findings_of(out);
  int wrong_runs = 0;
  for (const auto& [id, safe, wrong, error] : racy_verdicts(out, findings)) {
    wrong_runs += wrong;
    EXPECT_EQ(error, wrong) << id;
  }
  EXPECT_EQ(wrong_runs, 2) << "the late starter makes loop 0 wrong in every run";
}

// reproduce finds the textbook race by forcing the quiet run's wildcard
// receives (issue 30 item 6: before any noise), or under noise when the
// quiet try itself went wrong; its printed replay (the decision log of the
// run that showed it) reproduces the failure every time.
TEST(RacesE2E, ReproduceFindsTheTextbookRaceAndItsReplayReproducesIt) {
  TempDir tmp;
  const fs::path out = tmp.path() / "repro";
  auto r = run_scalefuzz({"reproduce", (source_dir() / "configs/scenarios/races_same_site.yaml").string(), "--until",
                          "race", "--max-runs", "6", "--filter", "variant=--races", "--out", out.string(), "--build",
                          build_dir().string()},
                         std::chrono::seconds(390));
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  std::smatch m;
  // Found by forcing ("replay:") or, when the quiet try already went wrong,
  // under noise ("replay (the recorded matches forced):"): either way the
  // first line is the deterministic replay of the run that showed it.
  ASSERT_TRUE(std::regex_search(
      r.out, m, std::regex("reproduced race (?:by forcing|in try)[^\\n]*\\n(?:[^\\n]*\\n)*?replay(?: \\(the recorded matches forced\\))?:\\n  (.*)\\n")))
      << r.out << r.err;
  const std::string line = m[1].str();
  const std::vector<std::string> words = split_shell_words(line);
  ASSERT_EQ(words.size(), 3u) << line;
  ASSERT_EQ(words[1], "replay") << line;
  auto replay = run_scalefuzz({"replay", words[2], "--times", "5"}, std::chrono::seconds(300));
  EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("reproduced 5/5"), std::string::npos) << replay.out << replay.err;
}
