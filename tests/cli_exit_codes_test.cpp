// The exit-code table (harness/cli/src/exit_codes.hpp, README "Using it")
// checked per command through the real binary: 0 nothing found, 1 findings,
// 2 usage or input error, 3 infrastructure, 130 interrupted; plus what CLI11
// gives every command: "did you mean", --version, checked option values.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <thread>

#include "cli_support.hpp"

namespace scalefuzz::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::vector<std::string> kCommands = {"run",   "analyze", "report", "exec",    "reproduce", "kcca-eval",
                                            "trace", "diff",    "submit", "status",  "collect",   "task",
                                            "replay",  "explore"};

std::string ring_campaign() { return (source_dir() / "configs/scenarios/ring.yaml").string(); }
std::string ring_program() { return (build_dir() / "scenarios/ring").string(); }

TEST(CliExitCodes, EveryCommandRefusesAnUnknownOptionWithTwoAndAHint) {
  for (const auto& command : kCommands) {
    auto r = run_scalefuzz({command, "--bogus-option"});
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("scalefuzz " + command + ": unknown option '--bogus-option'")) << command;
    r = run_scalefuzz({command, "--help"});
    EXPECT_EQ(r.exit_code, 0) << command;
    EXPECT_THAT(r.out, HasSubstr("Exit: ")) << command << " --help does not say what its exit codes mean";
  }
}

// Issue 34: the help showed "--stall RANK" (the declared "RANK:CALL" was cut
// at its ':' with CLI11's check descriptions); checks are still not shown.
TEST(CliExitCodes, HelpShowsTypeNamesAsDeclared) {
  const auto r = run_scalefuzz({"exec", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("--stall RANK:CALL")) << r.out;
  EXPECT_THAT(r.out, HasSubstr("--oversubscribe MODE ")) << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr("{auto,on,off}"))) << r.out;
}

TEST(CliExitCodes, MistypedOptionsAndCommandsGetDidYouMean) {
  auto r = run_scalefuzz({"run", ring_campaign(), "--dry-run", "--jobz", "2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown option '--jobz' (did you mean '--jobs'?)"));
  r = run_scalefuzz({"exec", "--noise-sett", "scale=1", "--", "mpiexec", "-n", "2", "true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("(did you mean '--noise-set'?)"));
  r = run_scalefuzz({"reprodcue", ring_campaign()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown command 'reprodcue' (did you mean 'reproduce'?)"));
  r = run_scalefuzz({"--verison"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("(did you mean '--version'?)"));
}

// exec --noise-set goes through the noise spec like a campaign file: a knob
// the mode lacks, a value without its unit, a bad number are errors before
// anything starts (never a warning in a rank's stderr).
TEST(CliExitCodes, NoiseSetValuesAreCheckedWithTheirUnits) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--noise", "system", "--noise-set", "latency=5parsecs"}, "expected a duration for latency, got '5parsecs'"},
      {{"--noise", "system", "--noise-set", "latency=250"}, "(add a unit: ns, us, ms, s, m or h)"},
      {{"--noise", "random", "--noise-set", "scale=2"}, "mode random has no knob 'scale'; its knobs: probability, delay"},
      {{"--noise", "random", "--noise-set", "probability=1.5"}, "probability is a probability and must be in (0, 1]"},
      {{"--noise", "system", "--noise-set", "bandwidth=fast"}, "expected a bandwidth for bandwidth, got 'fast'"},
      {{"--noise", "local", "--noise-set", "delay"}, "expected KNOB=VALUE, got 'delay'"},
  };
  for (const auto& [flags, message] : cases) {
    std::vector<std::string> argv{"exec"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {"--", "mpiexec", "-n", "2", "true"});
    const auto r = run_scalefuzz(argv);
    EXPECT_EQ(r.exit_code, 2) << flags.back();
    EXPECT_THAT(r.err, HasSubstr(message)) << flags.back();
  }
}

// Every duration on the command line is written as in a campaign file: a
// bare number (once seconds for exec --timeout) is refused with how to write
// it, before anything starts.
TEST(CliExitCodes, CommandLineDurationsNeedTheirUnit) {
  auto r = run_scalefuzz({"exec", "--timeout", "1500", "--", "mpiexec", "-n", "2", "true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("expected a duration for --timeout, got '1500' (add a unit: ns, us, ms, s, m or h); "
                               "e.g. 1500s for seconds"));
  r = run_scalefuzz({"exec", "--timeout", "soon", "--", "mpiexec", "-n", "2", "true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("expected a duration for --timeout, got 'soon'"));
  r = run_scalefuzz({"exec", "--timeout", "0s", "--", "mpiexec", "-n", "2", "true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--timeout must be longer than 0"));
}

// exec --launcher names the plug-in that reads the command: its process
// count syntax, and a name that is no launcher is refused.
TEST(CliExitCodes, ExecLauncherChoiceReadsTheCommandItsWay) {
  auto r = run_scalefuzz({"exec", "--launcher", "srun", "--", "mpiexec", "-np", "2", "true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("expected '-- mpiexec -n 4 ./app [args]' after the options (srun launcher)"));
  r = run_scalefuzz({"exec", "--launcher", "aprun", "--", "mpiexec", "-n", "2", "true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("aprun"));
  r = run_scalefuzz({"exec", "--", "mpiexec", "-n", "two", "true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("'-n two': expected a number of processes"));
}

TEST(CliExitCodes, VersionAndHelpExitZero) {
  auto r = run_scalefuzz({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("scalefuzz " SCALEFUZZ_VERSION));
  r = run_scalefuzz({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("--version"));
  EXPECT_THAT(r.out, HasSubstr("130  interrupted"));
}

TEST(CliExitCodes, OptionValuesAreCheckedByTypeAndRange) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", ring_campaign(), "--dry-run", "--jobs", "0"},
        {"run", ring_campaign(), "--dry-run", "--jobs", "2.5"},
        {"run", ring_campaign(), "--dry-run", "--jobs", "1", "--jobs", "2"},
        {"exec", "--seed", "-1", "--", "mpiexec", "-n", "2", "true"},
        {"exec", "--seed", "12x", "--", "mpiexec", "-n", "2", "true"},
        {"exec", "--noise", "sytem", "--", "mpiexec", "-n", "2", "true"},
        {"exec", "--oversubscribe", "maybe", "--", "mpiexec", "-n", "2", "true"},
        {"reproduce", ring_campaign(), "--until", "crash", "--max-runs", "0"},
        {"reproduce", ring_campaign(), "--until", "deadlock"},
        {"kcca-eval", ".", "--folds", "1"},
        {"explore", ".", "--depth", "9"},
        {"trace", ".", "--rank", "-3"},
        {"replay", ".", "--times", "0"},
        {"diff", ".", ".", "--fail-on", "sometimes"},
        {"run", ring_campaign(), "--dry-run", "--baseline", ".", "--fail-on", "old"}}) {
    const auto r = run_scalefuzz(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[args.size() - 1] << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("Run 'scalefuzz " + args[0] + " --help' for usage."));
  }
}

TEST(CliExitCodes, UsageAndInputErrorsExitTwoPerCommand) {
  TempDir tmp;
  const std::vector<std::vector<std::string>> cases = {
      {"run"},
      {"run", ring_campaign(), "extra.yaml"},
      {"analyze", (tmp.path() / "missing").string()},
      {"analyze", tmp.path().string()},
      {"report", tmp.path().string()},
      {"exec"},
      {"exec", "--", "mpiexec", "./app"},
      {"reproduce", ring_campaign()},
      {"kcca-eval", tmp.path().string()},
      {"explore", tmp.path().string()},
      {"trace", tmp.path().string()},
      {"replay"},
      {"replay", tmp.path().string()},  // no spec.json, no decision log
      {"diff", tmp.path().string()},
      {"diff", tmp.path().string(), tmp.path().string()},  // no findings.json
      {"run", ring_campaign(), "--dry-run", "--fail-on", "any"},  // --fail-on without --baseline
  };
  for (const auto& args : cases) {
    const auto r = run_scalefuzz(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_THAT(r.err, Not(HasSubstr("internal error"))) << args[0];
  }
}

TEST(CliExitCodes, MissingLauncherExitsThreeForRunExecAndReproduce) {
  TempDir tmp;
  const fs::path file = tmp.path() / "c.yaml";
  write_file(file,
             "campaign: nolauncher\n"
             "app: { command: [\"{build}/scenarios/ring\"] }\n"
             "scales: [2]\n"
             "mpiexec: [\"/nonexistent/bin/mpiexec\"]\n");
  auto r = run_scalefuzz({"run", file.string(), "--out", (tmp.path() / "out").string()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("/nonexistent/bin/mpiexec")) << "the error names the missing launcher";
  r = run_scalefuzz({"reproduce", file.string(), "--until", "any", "--out", (tmp.path() / "rep").string()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  r = run_scalefuzz({"exec", "--out", (tmp.path() / "exec").string(), "--", "/nonexistent/bin/mpiexec", "-n", "2",
                     ring_program()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
}

TEST(CliExitCodes, ExecExitsZeroWhenTheRunEndsOkAndOneWhenItDoesNot) {
  TempDir tmp;
  auto r = run_scalefuzz({"exec", "--out", (tmp.path() / "ok").string(), "--timeout", "120s", "--", "mpiexec", "-n",
                          "2", ring_program(), "--iterations", "2"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = run_scalefuzz({"exec", "--out", (tmp.path() / "bad").string(), "--timeout", "120s", "--", "mpiexec", "-n", "2",
                     ring_program(), "--iterations", "nonsense"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
}

TEST(CliExitCodes, InterruptedRunExits130) {
  TempDir tmp;
  const fs::path file = tmp.path() / "c.yaml";
  write_file(file,
             "campaign: interrupted\n"
             "app: { command: [\"{build}/scenarios/ring\", \"--iterations\", \"3000\", \"--count\", \"4096\"] }\n"
             "scales: [2]\n"
             "repetitions: 6\n"
             "timeout: 120s\n"
             "detectors: [races]\n");
  const fs::path out = tmp.path() / "out";
  const pid_t harness = start_scalefuzz({"run", file.string(), "--out", out.string()}, tmp.path() / "log");
  wait_until([&] { return count_children_with(out / "runs", "spec.json") >= 1; }, std::chrono::seconds(180));
  ASSERT_EQ(kill(harness, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(waitpid(harness, &status, 0), harness);
  ASSERT_TRUE(WIFEXITED(status)) << read_file(tmp.path() / "log" / "stderr.txt");
  EXPECT_EQ(WEXITSTATUS(status), 130) << read_file(tmp.path() / "log" / "stderr.txt");
  EXPECT_THAT(read_file(tmp.path() / "log" / "stderr.txt"), HasSubstr("run the same command again to resume"));
}

// Issue 19 defect 9: exit codes that disagreed with the README.
TEST(IssueDefect9, UnusableOutIsAnInfrastructureFailureExitThree) {
  TempDir tmp;
  write_file(tmp.path() / "a-file", "x");
  for (const fs::path& out : {tmp.path() / "a-file", tmp.path() / "a-file" / "sub", tmp.path() / std::string(300, 'x')}) {
    const auto r = run_scalefuzz({"run", ring_campaign(), "--out", out.string(), "--filter", "np=2,rep=0,noise=none,count=16"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_THAT(r.err, HasSubstr("cannot create output directory"));
  }
  const auto r = run_scalefuzz({"exec", "--out", (tmp.path() / "a-file" / "run").string(), "--", "mpiexec", "-n", "2",
                                ring_program()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("internal error")));
}

TEST(IssueDefect9, CorruptOutcomeJsonIsUnreadableInputExitTwo) {
  TempDir tmp;
  const fs::path run = tmp.path() / "run";
  fs::create_directories(run / "ranks");
  write_file(run / "outcome.json", "{\"format\": \"scalefuzz-outcome\", \"kind\": 7");
  const auto r = run_scalefuzz({"analyze", run.string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("outcome.json"));
  EXPECT_THAT(r.err, Not(HasSubstr("internal error")));
}

TEST(IssueDefect9, NegativeExecSeedIsRefusedLikeTheCampaignsSeed) {
  const auto r = run_scalefuzz({"exec", "--seed", "-1", "--", "mpiexec", "-n", "2", ring_program()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--seed"));
}

TEST(IssueDefect9, SlurmSchedulerRefusalNamesLineAndColumn) {
  TempDir tmp;
  const fs::path file = tmp.path() / "s.yaml";
  write_file(file, "campaign: s\napp: {command: [a]}\nscales: [2]\nscheduler: {type: slurm, partition: debug, time: \"10\"}\n");
  const auto r = run_scalefuzz({"run", file.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(file.string() + ":4:19: scheduler type 'slurm'"));
}

// Issue 19 defect 10: bytes from input never reach the terminal raw.
bool has_raw_control_bytes(const std::string& text) {
  for (unsigned char c : text)
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F || c == 0xFF) return true;
  return false;
}

TEST(IssueDefect10, ControlBytesFromTheCampaignAreEscapedInDryRunAndErrors) {
  TempDir tmp;
  const fs::path dry = tmp.path() / "esc.yaml";
  write_file(dry, "campaign: esc\napp: {command: [a, \"{p}\"]}\nscales: [2]\nparameters: {p: [\"\\e]0;pwned\\a\\e[31mred\"]}\n");
  auto r = run_scalefuzz({"run", dry.string(), "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(has_raw_control_bytes(r.out)) << r.out;
  // As $'...', which a shell turns back into the bytes (issue 36 item 3).
  EXPECT_THAT(r.out, HasSubstr("$'\\x1b]0;pwned\\x07\\x1b[31mred'"));

  const fs::path bad = tmp.path() / "bin.yaml";
  write_file(bad, std::string("campaign: b\napp: {command: [a]}\nscales: [2]\nbogus\x1b[31m\x07\xff: 1\n"));
  r = run_scalefuzz({"run", bad.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(has_raw_control_bytes(r.err)) << r.err;
  EXPECT_THAT(r.err, HasSubstr("unknown key 'bogus\\x1B[31m\\x07\\xFF'"));

  r = run_scalefuzz({"run\x1b]0;x\x07"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(has_raw_control_bytes(r.err)) << r.err;
}

// The SLURM commands' exit codes where no SLURM is needed (the `slurm` label
// has the rest, against a real one).
TEST(CliExitCodes, SlurmCommandsWithoutSlurm) {
  TempDir dir;
  const auto campaign = dir.path() / "c.yaml";
  write_file(campaign, "campaign: c\napp: { command: [\"{build}/scenarios/ring\"] }\nscales: [2, 4]\n"
                       "scheduler: { type: slurm, time: \"5\", max_parallel: 1 }\n");
  const auto out = (dir.path() / "out").string();
  ::setenv("SLURM_CONF", (dir.path() / "no-such-slurm.conf").c_str(), 1);
  auto r = run_scalefuzz({"submit", ring_campaign()});
  EXPECT_EQ(r.exit_code, 2) << r.err;  // a local campaign
  EXPECT_THAT(r.err, HasSubstr("needs scheduler: {type: slurm"));
  r = run_scalefuzz({"submit", campaign.string(), "--out", out});
  EXPECT_EQ(r.exit_code, 3) << r.err;  // SLURM not configured
  EXPECT_THAT(r.err, HasSubstr("no SLURM configuration at"));
  r = run_scalefuzz({"submit", campaign.string(), "--out", out, "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("would submit: 1 runs at 2 ranks (runs 0…0, --array=0%1)"));
  EXPECT_THAT(r.out, HasSubstr("would submit: 1 runs at 4 ranks (runs 1…1, --array=1%1)"));
  EXPECT_THAT(read_file(fs::path(out) / "slurm/scripts/attempt0-array1.sh"),
              HasSubstr("task '" + out + "' \"$((0 + SLURM_ARRAY_TASK_ID))\""));
  r = run_scalefuzz({"collect", out});
  EXPECT_EQ(r.exit_code, 2) << r.err;  // a dry run
  r = run_scalefuzz({"status", out});
  EXPECT_EQ(r.exit_code, 3) << r.err;  // SLURM unreachable
  r = run_scalefuzz({"status", dir.path().string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;  // not a submission
  r = run_scalefuzz({"task", out, "7"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("run index '7' is not in 0..1"));
  r = run_scalefuzz({"submit", "--resume", out, campaign.string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = run_scalefuzz({"submit", campaign.string(), "--out", dir.path().string() + "/o%j"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("cannot contain %"));
  ::unsetenv("SLURM_CONF");
}

}  // namespace
}  // namespace scalefuzz::e2e
