// Issue 34 (hardening, round 2) and issue 36 items 3-4, end to end through
// the real binary: each test failed before its fix.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <map>
#include <set>
#include <sstream>

#include "cli_support.hpp"
#include "scalefuzz/harness/launcher.hpp"

namespace scalefuzz::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

harness::ProcessResult bash(const std::string& line, std::chrono::seconds timeout = std::chrono::seconds(300)) {
  return harness::run_process({"bash", "-c", line}, "", timeout);
}

// XML attribute text back to the characters (junit.xml).
std::string xml_unescape(std::string s) {
  for (const auto& [entity, c] : std::vector<std::pair<std::string, std::string>>{
           {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&#39;", "'"}, {"&amp;", "&"}})
    for (std::size_t at = 0; (at = s.find(entity, at)) != std::string::npos; at += c.size()) s.replace(at, entity.size(), c);
  return s;
}

// The properties of each <testcase> of a junit.xml, in order.
std::vector<std::map<std::string, std::string>> junit_properties(const fs::path& junit) {
  const std::string xml = read_file(junit);
  static const std::regex property(R"re(<property name="([^"]*)" value="([^"]*)")re");
  std::vector<std::map<std::string, std::string>> out;
  for (std::size_t at = xml.find("<testcase"); at != std::string::npos;) {
    const std::size_t next = xml.find("<testcase", at + 1);
    const std::string block = xml.substr(at, next == std::string::npos ? std::string::npos : next - at);
    auto& props = out.emplace_back();
    for (auto it = std::sregex_iterator(block.begin(), block.end(), property); it != std::sregex_iterator(); ++it)
      props[(*it)[1].str()] = xml_unescape((*it)[2].str());
    at = next;
  }
  return out;
}

// Runs a replay line as a user would paste it. An exact replay (scalefuzz
// replay) must reproduce the run (exit 0); a seed-and-noise line must give
// `outcome` back (timing-dependent: up to `tries` times).
void expect_replay_runs(const std::string& line, const std::string& outcome, int tries = 3) {
  SCOPED_TRACE(line);
  ASSERT_FALSE(line.empty());
  if (line.find(" replay ") != std::string::npos) {
    const auto r = bash(line);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("reproduced 1/1 (outcome " + outcome));
    return;
  }
  std::string last;
  for (int i = 0; i < tries; ++i) {
    const auto r = bash(line);
    last = r.out + r.err;
    if (r.out.find("outcome: " + outcome) != std::string::npos) return;
  }
  ADD_FAILURE() << "no 'outcome: " << outcome << "' in " << tries << " tries:\n" << last;
}

// Issue 34 item 1: a run the harness could not launch is its own failure
// (exit 3), not a finding about the application (exit 1).
TEST(Issue34Item1, RunsThatCouldNotBeLaunchedExitThree) {
  TempDir tmp;
  const fs::path file = tmp.path() / "c.yaml";
  write_file(file,
             "campaign: unlaunchable\n"
             "app: { command: [\"{build}/scenarios/no_such_program\"] }\n"
             "scales: [2]\n"
             "timeout: 30s\n"
             "detectors: [races]\n");
  const auto r = run_scalefuzz({"run", file.string(), "--out", (tmp.path() / "out").string()});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("could not be launched"));
  EXPECT_THAT(r.err, HasSubstr("np2-"));
}

// Issue 34 item 2: a bug seen two nights ago, gone last night, back tonight
// is not new when the earlier night is in the window (--seen-in).
TEST(Issue34Item2, DiffCountsABugOfAnEarlierNightAsStillThere) {
  TempDir tmp;
  auto night = [&](const std::string& name, bool with_bug) {
    const fs::path out = tmp.path() / name;
    fs::create_directories(out);
    std::string bugs = with_bug ? R"([{"fingerprint": "00000000000000aa", "signature": "outcome/hang in case3.c",
        "detector": "outcome", "kind": "hang", "title": "hang", "severity": "error", "occurrence_count": 1,
        "runs": ["r0"], "first_seen": "2026-01-01T00:00:00Z", "last_seen": "2026-01-01T00:00:00Z"}])"
                                : "[]";
    write_file(out / "findings.json",
               R"({"format": "scalefuzz-findings", "format_version": 2, "findings": [], "bugs": )" + bugs + "}");
    return out.string();
  };
  const auto n1 = night("n1", true), n2 = night("n2", false), n3 = night("n3", true);
  auto r = run_scalefuzz({"diff", n2, n3});
  EXPECT_EQ(r.exit_code, 1) << "one night back, the bug looks new: " << r.out << r.err;
  r = run_scalefuzz({"diff", n2, n3, "--seen-in", n1});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("0 new, 1 still there, 0 gone"));
}

// Issue 34 item 3: after `reproduce`, every artefact carries a replay line
// that runs — report.html, each try's replay.txt, JUnit's replay property —
// each try replays into its own directory, and the seed-and-noise line says
// it is timing-dependent.
TEST(Issue34Item3, EveryArtefactOfReproduceCarriesAReplayThatRuns) {
  TempDir tmp;
  const fs::path file = tmp.path() / "c.yaml";
  write_file(file,
             "campaign: cycle\n"
             "app: { command: [\"{build}/scenarios/deadlock_cycle\"] }\n"
             "scales: [3]\n"
             "timeout: 4s\n"
             "detectors: [mpipd]\n");
  const fs::path out = tmp.path() / "out";
  const auto r = run_scalefuzz({"reproduce", file.string(), "--until", "hang", "--max-runs", "3", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("timing-dependent"));
  std::set<std::string> replay_dirs;
  int tries = 0;
  for (const auto& run : fs::directory_iterator(out / "runs")) {
    ++tries;
    const std::string text = read_file(run.path() / "replay.txt");
    ASSERT_THAT(text, HasSubstr(" exec ")) << run.path();
    EXPECT_THAT(text, HasSubstr("timing-dependent"));
    const auto at = text.find("--out ");
    replay_dirs.insert(text.substr(at, text.find(' ', at + 6) - at));
  }
  EXPECT_EQ(tries, 2) << "the quiet try and the noisy one";
  EXPECT_EQ(replay_dirs.size(), 2u) << "replays of two tries must not overwrite each other";
  const std::string html = read_file(out / "report.html");
  EXPECT_THAT(html, HasSubstr("class=\"replay-cmd\"")) << "report.html shows no replay command";
  std::string hang_replay;
  for (const auto& props : junit_properties(out / "junit.xml"))
    if (props.count("replay") && props.count("run_id") && hang_replay.empty()) hang_replay = props.at("replay");
  expect_replay_runs(hang_replay, "hang");
  // The second line of each replay.txt, the seed and noise, runs too.
  for (const auto& run : fs::directory_iterator(out / "runs")) {
    std::istringstream text(read_file(run.path() / "replay.txt"));
    for (std::string line; std::getline(text, line);)
      if (line.find(" exec ") != std::string::npos)
        expect_replay_runs(line, harness::to_string(harness::read_outcome(run.path()).value().kind), 1);
  }
}

// Issue 36 item 4: JUnit's replay of an application-centric run carries its
// system run's analysis directory, so it runs on its own.
TEST(Issue36Item4, JunitReplayOfAnApplicationNoiseRunRuns) {
  TempDir tmp;
  const fs::path file = tmp.path() / "c.yaml";
  write_file(file,
             "campaign: appnoise\n"
             "app: { command: [\"{build}/scenarios/ring\", \"--iterations\", \"20\"] }\n"
             "scales: [2]\n"
             "noise: [ { mode: system }, { mode: application } ]\n"
             "timeout: 60s\n"
             "detectors: [races]\n");
  const fs::path out = tmp.path() / "out";
  const auto r = run_scalefuzz({"run", file.string(), "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  int application = 0;
  for (const auto& props : junit_properties(out / "junit.xml")) {
    if (!props.count("noise") || props.at("noise").rfind("application", 0) != 0 || !props.count("replay")) continue;
    ++application;
    EXPECT_THAT(props.at("replay"), Not(HasSubstr("--filter"))) << "a rerun of the run alone lacks its system run";
    expect_replay_runs(props.at("replay"), "ok");
    // Its seed-and-noise line (replay.txt, the report) names the system run.
    std::istringstream text(read_file(out / "runs" / props.at("run_id") / "replay.txt"));
    int exec_lines = 0;
    for (std::string line; std::getline(text, line);)
      if (line.find(" exec ") != std::string::npos) {
        ++exec_lines;
        EXPECT_THAT(line, HasSubstr("--noise-set analysis="));
        expect_replay_runs(line, "ok");
      }
    EXPECT_EQ(exec_lines, 1);
  }
  EXPECT_GE(application, 1) << "no JUnit replay of the application-centric run";
}

// Issue 36 item 3: --dry-run shows a parameter value holding control bytes
// as $'...', which a shell turns back into the bytes.
TEST(Issue36Item3, DryRunLinesGiveBackControlBytesThroughAShell) {
  TempDir tmp;
  const fs::path file = tmp.path() / "c.yaml";
  const std::string hostile = "t\x1b]0;title\x07x";
  write_file(file,
             "campaign: ctl\n"
             "app: { command: [\"{build}/scenarios/ring\", \"--label\", \"{label}\"] }\n"
             "scales: [2]\n"
             "parameters: { label: [\"t\\e]0;title\\ax\"] }\n"
             "timeout: 10s\n"
             "detectors: [races]\n");
  const auto r = run_scalefuzz({"run", file.string(), "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << "a raw control byte reached the terminal";
  std::string line;
  std::istringstream lines(r.out);
  for (std::string l; std::getline(lines, l);)
    if (l.rfind("env ", 0) == 0) line = l;
  ASSERT_FALSE(line.empty()) << r.out;
  // The line's words, as a shell reads them, one per output line.
  const auto words = bash("printf '%s\\n' " + line.substr(4), std::chrono::seconds(30));
  ASSERT_EQ(words.exit_code, 0) << words.err;
  EXPECT_THAT(words.out, HasSubstr("\n" + hostile + "\n")) << line;
}

// Runs `scalefuzz ARGS` (stdout to /dev/null: a dry run of a million runs
// prints hundreds of MB; stderr to LOG_DIR/stderr.txt); its wall time and
// peak RSS.
struct Cost {
  int exit_code = -1;
  double seconds = 0;
  long max_rss_kb = 0;
};
Cost measure(const std::vector<std::string>& args, const fs::path& log_dir) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = start_scalefuzz(args, log_dir, {"sh", "-c", "exec \"$@\" > /dev/null", "sh"});
  Cost cost;
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid) return cost;
  cost.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  cost.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  cost.max_rss_kb = usage.ru_maxrss;
  return cost;
}

// Issue 34 item 8: a 100,000-value parameter list took 104 s before its
// first error (a quadratic duplicate check); a dry run of a million
// repetitions held 2.9 GB. Bounds: 20 s and 1 GB, on a loaded 2-core machine.
TEST(Issue34Item8, LongListsAndAMillionRepetitionsLoadWithinTimeAndMemory) {
  TempDir tmp;
  std::string values;
  for (int i = 0; i < 100000; ++i) values += (i ? ", " : "") + std::to_string(i);
  const fs::path big = tmp.path() / "big.yaml";
  // The error is the last value, a duplicate: every value is checked first.
  write_file(big, "campaign: big\napp: { command: [\"/bin/true\", \"{x}\"] }\nscales: [2]\nparameters: { x: [" + values +
                      ", 5] }\ntimeout: 10s\n");
  auto cost = measure({"run", big.string(), "--dry-run"}, tmp.path() / "big");
  EXPECT_EQ(cost.exit_code, 2);
  EXPECT_THAT(read_file(tmp.path() / "big" / "stderr.txt"), HasSubstr("duplicate value '5' in parameters.x"));
  EXPECT_LT(cost.seconds, 20.0) << "the first error of a 100,000-value list";
  std::cout << "100,000 values: " << cost.seconds << " s, " << cost.max_rss_kb / 1024 << " MB\n";

  const fs::path reps = tmp.path() / "reps.yaml";
  write_file(reps, "campaign: reps\napp: { command: [\"/bin/true\"] }\nscales: [2]\nrepetitions: 1000000\ntimeout: 10s\n");
  cost = measure({"run", reps.string(), "--dry-run"}, tmp.path() / "reps");
  EXPECT_EQ(cost.exit_code, 0) << read_file(tmp.path() / "reps" / "stderr.txt");
  EXPECT_LT(cost.max_rss_kb, 1024L * 1024) << "a dry run of 1,000,000 runs";
  EXPECT_LT(cost.seconds, 240.0);
  std::cout << "1,000,000 repetitions, dry run: " << cost.seconds << " s, " << cost.max_rss_kb / 1024 << " MB\n";
}

// Issue 34 item 9: a full disk is the machine's state, said as such (exit 3,
// not "internal error"). The file system is a 1 MiB tmpfs in a mount
// namespace of its own (root; skipped without it).
TEST(Issue34Item9, AFullDiskIsNotAnInternalError) {
  if (::geteuid() != 0) GTEST_SKIP() << "mounting a small tmpfs needs root";
  TempDir tmp;
  const fs::path full = tmp.path() / "full";
  fs::create_directories(full);
  const std::string ring_yaml = (source_dir() / "configs/scenarios/ring.yaml").string();
  for (int free_kb : {100, 200, 400}) {
    const std::string script =
        "mount -t tmpfs -o size=1m tmpfs '" + full.string() + "' || exit 77\n"
        "dd if=/dev/zero of='" + full.string() + "/filler' bs=1k count=" + std::to_string(1024 - free_kb) +
        " 2>/dev/null\n"
        "exec '" + scalefuzz_binary().string() + "' run '" + ring_yaml + "' --out '" + full.string() +
        "/out' --filter 'np=2,rep=0,count=16'\n";
    const auto r = harness::run_process({"unshare", "--mount", "bash", "-c", script}, "", std::chrono::seconds(300));
    if (r.exit_code == 77) GTEST_SKIP() << "cannot mount a tmpfs here: " << r.err;
    EXPECT_EQ(r.exit_code, 3) << free_kb << " KiB free: a full disk is no finding: " << r.out << r.err;
    EXPECT_THAT(r.err, Not(HasSubstr("internal error"))) << free_kb << " KiB free";
    EXPECT_THAT(r.err, HasSubstr("out of disk space")) << free_kb << " KiB free";
  }
}

}  // namespace
}  // namespace scalefuzz::e2e
