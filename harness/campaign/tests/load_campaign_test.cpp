#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "scalefuzz/detectors/dmtracker/settings.hpp"
#include "scalefuzz/detectors/kcca/settings.hpp"
#include "test_support.hpp"

namespace scalefuzz::harness {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using testing::data_dir;
using testing::expect_load_errors;
using testing::parse;
using testing::parse_error;

// The techniques' sections as the loader keeps them: read by their own
// readers, held by name, read back as the detectors read them.
detectors::kcca::Settings kcca_of(const Campaign& c) {
  return settings::settings_of<detectors::kcca::Settings>(c.settings, "kcca");
}
detectors::dmtracker::Settings dmtracker_of(const Campaign& c) {
  return settings::settings_of<detectors::dmtracker::Settings>(c.settings, "dmtracker");
}

constexpr const char* kMinimal = R"(campaign: tiny
app:
  command: ["./ring"]
scales: [2, 3]
)";

TEST(LoadCampaign, FullFileParsesEveryKey) {
  Campaign c = load_campaign(data_dir() / "good/full.yaml", LoadOptions{"/opt/sf-build", scalefuzz::analysis::detector_names()});
  EXPECT_EQ(c.name, "allgather-scale");
  EXPECT_EQ(c.campaign_dir, (data_dir() / "good").lexically_normal());
  EXPECT_EQ(c.build_dir, "/opt/sf-build");
  ASSERT_EQ(c.command.size(), 13u);
  EXPECT_EQ(c.command[0], "{build}/scenarios/allgather_overflow");
  EXPECT_EQ(c.command[12], "--json={{\"n\": {nprocs}}}");
  EXPECT_EQ(c.check.kind, ResultCheck::Kind::StdoutRegex);
  EXPECT_EQ(c.check.pattern, "MISMATCH at [0-9]+");
  EXPECT_THAT(c.env, ElementsAre(Pair("OMP_NUM_THREADS", "1"), Pair("APP_TAG", "{mode}-{count}")));
  EXPECT_THAT(c.scales.train, ElementsAre(4, 5));
  EXPECT_THAT(c.scales.test, ElementsAre(8));
  ASSERT_EQ(c.parameters.size(), 2u);
  EXPECT_EQ(c.parameters[0].name, "count");
  EXPECT_THAT(c.parameters[0].values, ElementsAre("256", "512"));
  EXPECT_EQ(c.parameters[1].name, "mode");
  EXPECT_THAT(c.parameters[1].values, ElementsAre("fast", "safe"));
  ASSERT_EQ(c.noise.size(), 5u);
  EXPECT_EQ(c.noise[0].mode, noise::Mode::None);
  EXPECT_TRUE(c.noise[0].settings.empty());
  EXPECT_EQ(c.noise[1].mode, noise::Mode::System);
  // Normalised: numbers shortest, durations in ns, bandwidth in bytes/s.
  EXPECT_THAT(c.noise[1].settings,
              ElementsAre(Pair("bandwidth", "3140000000"), Pair("latency", "250"),
                          Pair("packet_size", "4096"), Pair("scale", "1.2"), Pair("threshold", "8")));
  EXPECT_THAT(c.noise[2].settings, ElementsAre(Pair("delay", "10000"), Pair("probability", "0.25")));
  EXPECT_THAT(c.noise[3].settings, ElementsAre(Pair("scale", "2")));
  EXPECT_THAT(c.noise[4].settings, ElementsAre(Pair("delay", "1500000")));
  EXPECT_EQ(c.repetitions, 3);
  EXPECT_EQ(c.timeout, std::chrono::milliseconds(90'000));
  EXPECT_EQ(c.seed, 0xdeadbeefULL);
  EXPECT_THAT(c.detectors, ElementsAre("races", "pdg"));
  EXPECT_EQ(c.scheduler.type, "local");
  EXPECT_EQ(c.scheduler.jobs, 2);
  EXPECT_EQ(c.oversubscribe, Oversubscribe::On);
  EXPECT_THAT(c.mpiexec, ElementsAre("mpiexec", "-launcher", "fork"));
  ASSERT_NE(c.launcher, nullptr);
  EXPECT_EQ(c.launcher->name(), "hydra");
  EXPECT_FALSE(c.launcher_detected);
  EXPECT_FALSE(c.stall.enabled);
}

TEST(LoadCampaign, MinimalFileGetsDefaults) {
  Campaign c = parse(kMinimal);
  EXPECT_TRUE(c.scales.train.empty());  // a plain list means test scales
  EXPECT_THAT(c.scales.test, ElementsAre(2, 3));
  EXPECT_EQ(c.check.kind, ResultCheck::Kind::ExitCode);
  ASSERT_EQ(c.noise.size(), 1u);
  EXPECT_EQ(c.noise[0].mode, noise::Mode::None);
  EXPECT_EQ(c.repetitions, 1);
  EXPECT_EQ(c.timeout, std::chrono::milliseconds(60'000));
  EXPECT_EQ(c.seed, kDefaultCampaignSeed);
  EXPECT_EQ(c.detectors, scalefuzz::analysis::detector_names());
  EXPECT_EQ(c.scheduler.type, "local");
  EXPECT_EQ(c.scheduler.jobs, 1);
  EXPECT_EQ(c.oversubscribe, Oversubscribe::Auto);
  EXPECT_THAT(c.mpiexec, ElementsAre("mpiexec"));
  EXPECT_EQ(c.campaign_dir, "/campaigns");
}

TEST(LoadCampaign, StdoutMustMatchCheck) {
  Campaign c = parse(R"(campaign: t
app:
  command: ["./ring"]
  check: { stdout-must-match: "^result ok$" }
scales: [2]
)");
  EXPECT_EQ(c.check.kind, ResultCheck::Kind::StdoutMustMatch);
  EXPECT_EQ(c.check.pattern, "^result ok$");
}

TEST(LoadCampaign, CheckNeedsExactlyOneRegex) {
  EXPECT_THAT(parse_error(R"(campaign: t
app:
  command: ["./ring"]
  check: { stdout-regex: "a", stdout-must-match: "b" }
scales: [2]
)"),
              HasSubstr("inline.yaml:4:10: app.check needs exactly one of"));
  EXPECT_THAT(parse_error(R"(campaign: t
app: { command: ["./ring"], check: exit-status }
scales: [2]
)"),
              HasSubstr("inline.yaml:2:36: app.check must be exit-code"));
}

TEST(LoadCampaign, SlurmSchedulerIsValidated) {
  Campaign c = parse(R"(campaign: t
app: { command: ["./ring"] }
scales: [2]
scheduler: { type: slurm, partition: debug, time: "00:10:00", account: proj, qos: low,
             extra_args: ["--exclusive"] }
)");
  EXPECT_EQ(c.scheduler.type, "slurm");
  EXPECT_EQ(c.scheduler.partition, "debug");
  EXPECT_EQ(c.scheduler.time, "00:10:00");
  EXPECT_EQ(c.scheduler.account, "proj");
  EXPECT_EQ(c.scheduler.qos, "low");
  EXPECT_THAT(c.scheduler.extra_args, ElementsAre("--exclusive"));
  for (const char* time : {"10", "10:00", "1-00", "1-2:30", "2-00:00:00"})
    EXPECT_EQ(parse_error(std::string("campaign: t\napp: { command: [x] }\nscales: [2]\n"
                                      "scheduler: { type: slurm, time: \"") + time + "\" }\n"),
              "")
        << time;
  // jobs is a local-scheduler key.
  EXPECT_THAT(parse_error("campaign: t\napp: { command: [x] }\nscales: [2]\n"
                          "scheduler: { type: slurm, jobs: 2 }\n"),
              HasSubstr("inline.yaml:4:27: unknown key 'jobs' in scheduler (type slurm)"));
  Campaign full = parse("campaign: t\napp: { command: [x] }\nscales: [2]\nlauncher: srun\n"
                         "scheduler: { type: slurm, max_parallel: 4, nodes: 2,\n"
                         "             extra_args: [\"--mem=2G\", \"--nodelist=sf2\"] }\n");
  EXPECT_EQ(full.scheduler.max_parallel, 4);
  EXPECT_EQ(full.scheduler.nodes, 2);
  ASSERT_NE(full.launcher, nullptr);
  EXPECT_EQ(full.launcher->name(), "srun");
  EXPECT_THAT(full.scheduler.extra_args, ElementsAre("--mem=2G", "--nodelist=sf2"));
  EXPECT_THAT(parse_error("campaign: t\napp: { command: [x] }\nscales: [2]\n"
                          "launcher: aprun\n"),
              HasSubstr("inline.yaml:4:11: unknown launcher 'aprun'"));
  // The launcher moved out of scheduler: the old key is refused, not ignored.
  EXPECT_THAT(parse_error("campaign: t\napp: { command: [x] }\nscales: [2]\n"
                          "scheduler: { type: slurm, launcher: srun }\n"),
              HasSubstr("inline.yaml:4:27: scheduler.launcher is now the top-level key 'launcher:'"));
  EXPECT_THAT(parse_error("campaign: t\napp: { command: [x] }\nscales: [2]\n"
                          "scheduler: { type: slurm, extra_args: [\"--exclusive\", \"--wrap=rm -rf /\"] }\n"),
              HasSubstr("inline.yaml:4:55: scheduler.extra_args: unsupported sbatch option '--wrap=rm -rf /'"));
  EXPECT_THAT(parse_error("campaign: t\napp: { command: [x] }\nscales: [2]\n"
                          "scheduler: { type: slurm, extra_args: [--mem] }\n"),
              HasSubstr("inline.yaml:4:40: scheduler.extra_args: '--mem' needs a value (--mem=VALUE)"));
  EXPECT_THAT(parse_error("campaign: t\napp: { command: [x] }\nscales: [2]\n"
                          "scheduler: { type: slurm, max_parallel: 0 }\n"),
              HasSubstr("inline.yaml:4:41: scheduler.max_parallel must be between 1 and 1000000"));
  EXPECT_THAT(parse_error("campaign: t\napp: { command: [x] }\nscales: [2]\n"
                          "scheduler: { type: pbs }\n"),
              HasSubstr("inline.yaml:4:20: unknown scheduler type 'pbs'"));
  EXPECT_THAT(parse_error("campaign: t\napp: { command: [x] }\nscales: [2]\n"
                          "scheduler: { type: local, jobs: 0 }\n"),
              HasSubstr("inline.yaml:4:33: scheduler.jobs must be between 1 and 1024"));
}

TEST(LoadCampaign, OversubscribeStallAndDetectors) {
  const std::string head = "campaign: t\napp: { command: [x] }\nscales: [2]\n";
  EXPECT_EQ(parse(head + "oversubscribe: off\n").oversubscribe, Oversubscribe::Off);
  EXPECT_EQ(parse(head + "oversubscribe: auto\n").oversubscribe, Oversubscribe::Auto);
  EXPECT_THAT(parse_error(head + "oversubscribe: maybe\n"),
              HasSubstr("inline.yaml:4:16: oversubscribe must be auto, on or off"));
  EXPECT_TRUE(parse(head + "stall: { enabled: true }\n").stall.enabled);
  EXPECT_EQ(parse(head + "stall: { enabled: true }\n").stall.calls, 50);
  EXPECT_EQ(parse(head + "stall: { enabled: true, calls: 7 }\n").stall.calls, 7);
  expect_load_errors(head, {
      {"stall: { enabled: true, calls: 0 }\n",
       "inline.yaml:4:32: stall.calls must be between 1 and 100000000, got 0"},
      {"stall: { enabled: sometimes }\n",
       "inline.yaml:4:19: expected true or false for stall.enabled"},
      {"stall: { probability: 0.5 }\n",
       "inline.yaml:4:10: unknown key 'probability' in stall"}});
  EXPECT_TRUE(parse(head + "detectors: []\n").detectors.empty());
  Campaign jobs_only = parse(head + "scheduler: { jobs: 3 }\n");  // type defaults to local
  EXPECT_EQ(jobs_only.scheduler.type, "local");
  EXPECT_EQ(jobs_only.scheduler.jobs, 3);
  EXPECT_THAT(parse_error(head + "detectors: [pdg, pdg]\n"),
              HasSubstr("inline.yaml:4:18: detector 'pdg' is listed twice"));
}

TEST(LoadCampaign, ExploreDepthAndBudget) {
  const std::string head = "campaign: t\napp: { command: [x] }\nscales: [2]\n";
  EXPECT_FALSE(parse(head).explore.enabled);
  const Campaign defaults = parse(head + "explore: {}\n");
  EXPECT_TRUE(defaults.explore.enabled);
  EXPECT_EQ(defaults.explore.depth, 1);
  EXPECT_EQ(defaults.explore.budget, 100u);
  const Campaign set = parse(head + "explore: { depth: 2, budget: 40 }\n");
  EXPECT_EQ(set.explore.depth, 2);
  EXPECT_EQ(set.explore.budget, 40u);
  expect_load_errors(head, {
      {"explore: { depth: 0 }\n", "inline.yaml:4:19: explore.depth must be between 1 and 4, got 0"},
      {"explore: { budget: many }\n", "inline.yaml:4:20: "},
      {"explore: { runs: 5 }\n", "inline.yaml:4:12: unknown key 'runs' in explore"},
      {"explore: 3\n", "inline.yaml:4:10: "}});
}

TEST(LoadCampaign, BuildPlaceholderNeedsABuildDirectory) {
  const std::string yaml = "campaign: t\napp: { command: [\"{build}/ring\"] }\nscales: [2]\n";
  EXPECT_THAT(parse_error(yaml, LoadOptions{}),
              HasSubstr("inline.yaml:2:18: app.command[0] uses {build} but no build directory"));
  EXPECT_EQ(parse_error(yaml), "");
  EXPECT_EQ(parse_error("campaign: t\napp: { command: [\"./ring\"] }\nscales: [2]\n", LoadOptions{}), "");
}

TEST(LoadCampaign, MpiexecPrefixIsInterpolatedOnce) {
  Campaign c = parse(R"(campaign: t
app: { command: [x] }
scales: [2]
mpiexec: ["{build}/bin/mpiexec", "-f", "{campaign_dir}/hosts"]
)");
  EXPECT_THAT(c.mpiexec, ElementsAre("/opt/sf-build/bin/mpiexec", "-f", "/campaigns/hosts"));
  EXPECT_THAT(parse_error(R"(campaign: t
app: { command: [x] }
scales: [2]
mpiexec: ["mpiexec", "-n", "{nprocs}"]
)"),
              HasSubstr("inline.yaml:4:28: unknown placeholder {nprocs} in mpiexec[2]"));
}

TEST(LoadCampaign, LauncherIsAutoByDefaultOrNamed) {
  Campaign c = parse("campaign: t\napp: { command: [x] }\nscales: [2]\n");
  ASSERT_NE(c.launcher, nullptr);
  EXPECT_EQ(c.launcher->name(), "hydra") << "mpiexec is Hydra's";
  EXPECT_TRUE(c.launcher_detected);
  c = parse("campaign: t\napp: { command: [x] }\nscales: [2]\nmpiexec: [/usr/bin/srun, --mpi=pmi2]\n");
  EXPECT_EQ(c.launcher->name(), "srun") << "auto reads the program's name";
  EXPECT_TRUE(c.launcher_detected);
  c = parse("campaign: t\napp: { command: [x] }\nscales: [2]\nlauncher: auto\nmpiexec: [mpiexec.hydra]\n");
  EXPECT_EQ(c.launcher->name(), "hydra");
  // A named launcher without mpiexec: its own command.
  c = parse("campaign: t\napp: { command: [x] }\nscales: [2]\nlauncher: srun\n");
  EXPECT_EQ(c.launcher->name(), "srun");
  EXPECT_FALSE(c.launcher_detected);
  EXPECT_THAT(c.mpiexec, ElementsAre("srun", "--mpi=pmi2", "--quiet"));
  // Named and a command the program name would not tell: the name wins.
  c = parse("campaign: t\napp: { command: [x] }\nscales: [2]\nlauncher: srun\nmpiexec: [/site/run-job]\n");
  EXPECT_EQ(c.launcher->name(), "srun");
  EXPECT_THAT(c.mpiexec, ElementsAre("/site/run-job"));
  EXPECT_THAT(parse_error("campaign: t\napp: { command: [x] }\nscales: [2]\nlauncher: hydr\n"),
              HasSubstr("inline.yaml:4:11: unknown launcher 'hydr' (did you mean 'hydra'?); known: auto, hydra, srun, openmpi"));
  EXPECT_THAT(parse_error("campaign: t\napp: { command: [x] }\nscales: [2]\nlauncher: [srun]\n"),
              HasSubstr("inline.yaml:4:11:"));
}

// `mpi:` (issue 31): auto by default; a named MPI alone starts the ranks
// with that MPI's launcher; a bad word is refused at its line and column.
TEST(LoadCampaign, MpiKeyIsAutoByDefaultOrNamesTheApplicationsMpi) {
  Campaign c = parse("campaign: t\napp: { command: [x] }\nscales: [2]\n");
  EXPECT_EQ(c.mpi, std::nullopt);
  c = parse("campaign: t\napp: { command: [x] }\nscales: [2]\nmpi: auto\n");
  EXPECT_EQ(c.mpi, std::nullopt);
  EXPECT_EQ(c.launcher->name(), "hydra");
  c = parse("campaign: t\napp: { command: [x] }\nscales: [2]\nmpi: openmpi\n");
  EXPECT_EQ(c.mpi, MpiImplementation::OpenMpi);
  EXPECT_EQ(c.launcher->name(), "openmpi") << "mpi: openmpi alone starts the ranks with Open MPI's mpirun";
  EXPECT_THAT(c.mpiexec, ElementsAre("mpirun.openmpi"));
  c = parse("campaign: t\napp: { command: [x] }\nscales: [2]\nmpi: mpich\n");
  EXPECT_EQ(c.mpi, MpiImplementation::Mpich);
  EXPECT_EQ(c.launcher->name(), "hydra");
  // With a launcher or an mpiexec the key only declares (the CLI checks they agree).
  c = parse("campaign: t\napp: { command: [x] }\nscales: [2]\nmpi: openmpi\nlauncher: srun\n");
  EXPECT_EQ(c.launcher->name(), "srun");
  EXPECT_EQ(c.mpi, MpiImplementation::OpenMpi);
  c = parse("campaign: t\napp: { command: [x] }\nscales: [2]\nmpi: openmpi\nmpiexec: [mpiexec]\n");
  EXPECT_EQ(c.launcher->name(), "hydra");
  EXPECT_THAT(parse_error("campaign: t\napp: { command: [x] }\nscales: [2]\nmpi: open-mpi\n"),
              HasSubstr("inline.yaml:4:6: unknown MPI 'open-mpi' (did you mean 'openmpi'?); known: auto, mpich, openmpi"));
  EXPECT_THAT(parse_error("campaign: t\napp: { command: [x] }\nscales: [2]\nmpi: [mpich]\n"), HasSubstr("inline.yaml:4:6:"));
}

TEST(LoadCampaign, EnvRejectsHarnessVariablesAndBadNames) {
  const std::string head = "campaign: t\napp:\n  command: [x]\n  env:\n";
  expect_load_errors(head, {
      {"    SCALEFUZZ_NOISE: x\nscales: [2]\n",
       "inline.yaml:5:5: app.env may not set SCALEFUZZ_NOISE"},
      {"    1BAD: x\nscales: [2]\n",
       "inline.yaml:5:5: '1BAD' is not a valid environment variable name"},
      {"    TAG: \"{colour}\"\nscales: [2]\n",
       "inline.yaml:5:10: unknown placeholder {colour} in app.env.TAG"}});
}

TEST(LoadCampaign, OnlyOneDocument) {
  EXPECT_THAT(parse_error(std::string(kMinimal) + "---\ncampaign: other\n"),
              HasSubstr("inline.yaml:6:1: expected one YAML document, found 2"));
}

TEST(LoadCampaign, DuplicateParameterValuesAndNoiseProfiles) {
  const std::string head = "campaign: t\napp: { command: [x] }\nscales: [2]\n";
  expect_load_errors(head, {
      {"parameters: { count: [1, 2, 1] }\n",
       "inline.yaml:4:29: duplicate value '1' in parameters.count"},
      {"noise:\n  - { mode: system, latency: 1us }\n  - { mode: system, latency: 1000ns }\n",
       "inline.yaml:6:5: noise[1] repeats noise[0] (system-latency1us)"}});
}

TEST(LoadCampaign, DmtrackerSection) {
  const std::string head = "campaign: t\napp: { command: [x] }\nscales: [4, 8]\n";
  const Campaign defaults = parse(head);
  EXPECT_TRUE(dmtracker_of(defaults).ranks.empty());
  EXPECT_TRUE(dmtracker_of(defaults).reference.empty());
  // A reference is a campaign output directory: one holding the run store.
  const auto out = std::filesystem::temp_directory_path() / ("sf-dmtracker-ref-" + std::to_string(::getpid()));
  std::filesystem::create_directories(out);
  { std::ofstream(out / "scalefuzz.db") << ""; }
  const Campaign c = parse(head + "dmtracker: { ranks: [1, 2, 3], reference: \"" + out.string() + "\" }\n");
  EXPECT_EQ(dmtracker_of(c).ranks, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(dmtracker_of(c).reference, out.lexically_normal());
  std::filesystem::remove_all(out);
  EXPECT_THAT(parse_error(head + "dmtracker: { reference: " + out.string() + " }\n"),
              HasSubstr("inline.yaml:4:25: dmtracker.reference is not a campaign output directory (no scalefuzz.db)"));
  expect_load_errors(head, {
      {"dmtracker: { ranks: [1, 2, 4] }\n",
       "inline.yaml:4:28: rank 4 in dmtracker.ranks does not exist at the smallest scale 4"},
      {"dmtracker: { ranks: [1, 2, 1] }\n",
       "inline.yaml:4:28: rank 1 appears twice in dmtracker.ranks"},
      {"dmtracker: { ranks: [1, 2] }\n",
       "inline.yaml:4:21: dmtracker.ranks needs at least 3 ranks"},
      {"dmtracker: { ranks: [-1, 2, 3] }\n",
       "inline.yaml:4:22: a rank in dmtracker.ranks must be between 0 and 999999"},
      {"dmtracker: { rank: [1, 2, 3] }\n",
       "inline.yaml:4:14: unknown key 'rank' in dmtracker (did you mean 'ranks'?)"}});
}

TEST(LoadCampaign, ZeroBufferSwitchInEveryMode) {
  const std::string head = "campaign: t\napp: { command: [x] }\nscales: [2]\n";
  Campaign c = parse(head + "noise:\n  - { mode: none }\n  - { mode: none, zero_buffer: true }\n"
                            "  - { mode: local, zero_buffer: false }\n");
  ASSERT_EQ(c.noise.size(), 3u);
  EXPECT_TRUE(c.noise[0].settings.empty());
  EXPECT_THAT(c.noise[1].settings, ElementsAre(Pair("zero_buffer", "1")));
  EXPECT_THAT(c.noise[2].settings, ElementsAre(Pair("zero_buffer", "0")));
  EXPECT_EQ(c.noise[1].label(), "none-zero_buffer");
  EXPECT_EQ(c.noise[2].label(), "local-zero_buffer0");
  EXPECT_THAT(parse_error(head + "noise:\n  - { mode: system, zero_buffer: sometimes }\n"),
              HasSubstr("inline.yaml:5:34: expected true or false for noise[0].zero_buffer, got 'sometimes'"));
}

// Guarded receives need one thread calling MPI: modes none and local take
// the switch, a mode with a send thread refuses it at its line.
TEST(LoadCampaign, GuardReceivesSwitchOnlyInModesWithoutASendThread) {
  const std::string head = "campaign: t\napp: { command: [x] }\nscales: [2]\n";
  Campaign c = parse(head + "noise:\n  - { mode: none, guard_receives: true }\n"
                            "  - { mode: local, guard_receives: true }\n");
  ASSERT_EQ(c.noise.size(), 2u);
  EXPECT_THAT(c.noise[0].settings, ElementsAre(Pair("guard_receives", "1")));
  EXPECT_THAT(c.noise[1].settings, ElementsAre(Pair("guard_receives", "1")));
  for (const char* mode : {"random", "system", "application"}) {
    SCOPED_TRACE(mode);
    const std::string error =
        parse_error(head + "noise:\n  - { mode: " + mode + ", guard_receives: true }\n");
    EXPECT_THAT(error, HasSubstr("inline.yaml:5:"));
    EXPECT_THAT(error, HasSubstr("unknown key 'guard_receives' in noise[0] (mode " + std::string(mode) + ")"));
  }
}

TEST(LoadCampaign, KccaSection) {
  const std::string head = "campaign: t\napp: { command: [x] }\nscales: [2]\n";
  const Campaign defaults = parse(head);
  EXPECT_TRUE(kcca_of(defaults).model.empty());
  EXPECT_EQ(kcca_of(defaults).components, 2);
  EXPECT_EQ(kcca_of(defaults).volume, "total");
  EXPECT_FALSE(kcca_of(defaults).chain_features);
  EXPECT_TRUE(kcca_of(parse(head + "kcca: { chain_features: true }\n")).chain_features);
  EXPECT_THAT(parse_error(head + "kcca: { chain_features: 3 }\n"), HasSubstr("inline.yaml:4:25: expected true or false for kcca.chain_features"));
  EXPECT_EQ(kcca_of(defaults).library_sites, "entry");
  EXPECT_EQ(kcca_of(parse(head + "kcca: { library_sites: stack }\n")).library_sites, "stack");
  EXPECT_THAT(parse_error(head + "kcca: { library_sites: frames }\n"),
              HasSubstr("inline.yaml:4:24: kcca.library_sites must be entry or stack, got 'frames'"));
  const auto some_file = *std::filesystem::directory_iterator(data_dir() / "good");  // any existing file
  const Campaign c = parse(head + "kcca: { model: \"" + some_file.path().string() +
                           "\", components: 3, gamma: 0.01, control_width: 64, observation_width: 128, volume: sent }\n");
  EXPECT_EQ(kcca_of(c).model, some_file.path().lexically_normal());
  EXPECT_EQ(kcca_of(c).components, 3);
  EXPECT_DOUBLE_EQ(kcca_of(c).gamma, 0.01);
  EXPECT_DOUBLE_EQ(kcca_of(c).control_width, 64);
  EXPECT_DOUBLE_EQ(kcca_of(c).observation_width, 128);
  EXPECT_EQ(kcca_of(c).volume, "sent");
  // A relative model path is resolved against the campaign's directory; it
  // need not exist yet (the first night trains it and saves it there).
  EXPECT_EQ(kcca_of(parse(head + "kcca: { model: night1/kcca-model.json }\n")).model,
            std::filesystem::path("/campaigns/night1/kcca-model.json"));
  EXPECT_THAT(parse_error(head + "kcca: { components: 0 }\n"),
              HasSubstr("inline.yaml:4:21: kcca.components must be between 1 and 64"));
  EXPECT_THAT(parse_error(head + "kcca: { gamma: -1 }\n"), HasSubstr("inline.yaml:4:16: kcca.gamma must be > 0"));
  EXPECT_THAT(parse_error(head + "kcca: { volume: bytes }\n"),
              HasSubstr("inline.yaml:4:17: kcca.volume must be total, sent or sent-and-received"));
  EXPECT_THAT(parse_error(head + "kcca: { width: 3 }\n"), HasSubstr("inline.yaml:4:9: unknown key 'width' in kcca"));
}

TEST(LoadCampaign, FileErrorsNameTheFile) {
  try {
    load_campaign(data_dir() / "does-not-exist.yaml");
    FAIL() << "expected CampaignError";
  } catch (const CampaignError& e) {
    EXPECT_THAT(e.what(), HasSubstr("does-not-exist.yaml: cannot open"));
  }
  try {
    load_campaign(data_dir());
    FAIL() << "expected CampaignError";
  } catch (const CampaignError& e) {
    EXPECT_THAT(e.what(), HasSubstr("is a directory"));
  }
}

}  // namespace
}  // namespace scalefuzz::harness
