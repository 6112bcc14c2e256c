#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <set>
#include <thread>

#include "scalefuzz/harness/run_json.hpp"
#include "scalefuzz/harness/run_store.hpp"
#include "store_test_util.hpp"

namespace scalefuzz::harness {
namespace {

using nlohmann::json;
using testing::read_file;
using testing::sample_hang;
using testing::sample_spec;
namespace fs = std::filesystem;

Outcome ok_outcome(const std::string& detail = "exit 0", double wall = 1.0) {
  Outcome o;
  o.detail = detail;
  o.wall_seconds = wall;
  return o;
}

TEST(RunStore, PrepareWritesSpecAndMarksStarted) {
  testing::TempDir tmp;
  auto store = RunStore::open(tmp.path() / "out", "demo", "fp1");
  EXPECT_TRUE(fs::is_regular_file(tmp.path() / "out" / "scalefuzz.db"));
  const auto spec = sample_spec("np4-none-r0");
  const auto dir = store.prepare_run(spec);
  EXPECT_EQ(dir, tmp.path() / "out" / "runs" / "np4-none-r0");
  EXPECT_EQ(dir, store.run_dir(spec.run_id));
  const auto on_disk = json::parse(read_file(dir / "spec.json")).get<RunSpec>();
  EXPECT_EQ(on_disk.argv, spec.argv);
  EXPECT_EQ(on_disk.seed, spec.seed);
  EXPECT_FALSE(store.is_finished(spec.run_id));
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_FALSE(runs[0].finished());
  EXPECT_FALSE(runs[0].started_at.empty());
  EXPECT_EQ(store.finished_count(), 0u);
}

TEST(RunStore, RecordFinishedRoundTripsThroughDbAndFile) {
  testing::TempDir tmp;
  const auto out = tmp.path() / "out";
  const auto spec = sample_spec("np8-system-s1.0-r1", 8, "system", 1);
  {
    auto store = RunStore::open(out, "demo", "fp1");
    store.prepare_run(spec);
    store.record_finished(spec, sample_hang(7.5));
    EXPECT_TRUE(store.is_finished(spec.run_id));
  }
  auto store = RunStore::open(out, "demo", "fp1");
  const auto rec = store.run(spec.run_id);
  ASSERT_TRUE(rec && rec->finished());
  EXPECT_EQ(rec->spec.wrong_result_regex, spec.wrong_result_regex);
  EXPECT_EQ(rec->spec.noise.settings, spec.noise.settings);
  EXPECT_EQ(rec->spec.timeout, spec.timeout);
  EXPECT_EQ(rec->outcome->kind, OutcomeKind::Hang);
  EXPECT_DOUBLE_EQ(rec->outcome->wall_seconds, 7.5);
  ASSERT_EQ(rec->outcome->stacks.size(), 2u);
  EXPECT_EQ(rec->outcome->stacks[1].text, sample_hang().stacks[1].text);
  EXPECT_FALSE(rec->finished_at.empty());
  const auto file = json::parse(read_file(rec->dir / "outcome.json")).get<Outcome>();
  EXPECT_EQ(file.detail, "timeout after 10s");
  EXPECT_EQ(file.stacks.size(), 2u);
}

TEST(RunStore, ResumeKeepsFinishedAndCleansUnfinished) {
  testing::TempDir tmp;
  const auto out = tmp.path() / "out";
  const auto done = sample_spec("done");
  const auto half = sample_spec("half");
  {
    auto store = RunStore::open(out, "demo", "fp1");
    store.prepare_run(done);
    std::ofstream(store.run_dir("done") / "stdout.txt") << "finished output\n";
    store.record_finished(done, ok_outcome());
    store.prepare_run(half);
    std::ofstream(store.run_dir("half") / "stdout.txt") << "partial output of a killed run\n";
  }  // the harness "dies" here with `half` started but not finished
  auto store = RunStore::open(out, "demo", "fp1");
  EXPECT_TRUE(store.is_finished("done"));
  EXPECT_FALSE(store.is_finished("half"));
  auto runs = store.runs();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(read_file(store.run_dir("done") / "stdout.txt"), "finished output\n");

  EXPECT_THROW(store.prepare_run(done), StoreError);  // finished runs are never redone
  const auto dir = store.prepare_run(half);
  EXPECT_FALSE(fs::exists(dir / "stdout.txt")) << "stale output of the killed attempt must be removed";
  EXPECT_TRUE(fs::exists(dir / "spec.json"));
  store.record_finished(half, ok_outcome("second attempt"));
  runs = store.runs();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(store.finished_count(), 2u);
  EXPECT_EQ(store.run("half")->outcome->detail, "second attempt");
}

TEST(RunStore, RunsComeInStableOrderIndependentOfInsertion) {
  testing::TempDir tmp;
  auto store = RunStore::open(tmp.path(), "demo", "fp");
  const std::vector<RunSpec> specs = {sample_spec("c", 8, "none", 0), sample_spec("a", 4, "system", 1),
                                      sample_spec("b", 4, "none", 1), sample_spec("d", 4, "none", 0)};
  for (const auto& s : specs) store.record_finished(s, ok_outcome());
  std::vector<std::string> ids;
  for (const auto& r : store.runs()) ids.push_back(r.spec.run_id);
  EXPECT_EQ(ids, (std::vector<std::string>{"d", "b", "a", "c"}));
}

TEST(RunStore, ConcurrentRecordFinishedFromThreads) {
  testing::TempDir tmp;
  auto store = RunStore::open(tmp.path(), "demo", "fp");
  constexpr int kThreads = 8, kPerThread = 25;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const auto spec = sample_spec("t" + std::to_string(t) + "-r" + std::to_string(i), 4, "none", i);
        store.prepare_run(spec);
        store.record_finished(spec, ok_outcome("thread " + std::to_string(t), i));
        EXPECT_TRUE(store.is_finished(spec.run_id));
      }
    });
  for (auto& th : threads) th.join();
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), static_cast<std::size_t>(kThreads * kPerThread));
  std::set<std::string> ids;
  for (const auto& r : runs) {
    ASSERT_TRUE(r.finished());
    ids.insert(r.spec.run_id);
    EXPECT_EQ(r.outcome->detail, "thread " + r.spec.run_id.substr(1, r.spec.run_id.find('-') - 1));
  }
  EXPECT_EQ(ids.size(), runs.size());
}

TEST(RunStore, SecondWriterIsRefusedButReadersAreNot) {
  testing::TempDir tmp;
  auto store = RunStore::open(tmp.path(), "demo", "fp");
  store.record_finished(sample_spec("x"), ok_outcome());
  try {
    RunStore::open(tmp.path(), "demo", "fp");
    FAIL() << "a second writer must be refused";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("another scalefuzz process"), std::string::npos) << e.what();
  }
  auto reader = RunStore::open_existing(tmp.path(), StoreAccess::ReadOnly);
  EXPECT_EQ(reader.campaign_name(), "demo");
  EXPECT_EQ(reader.campaign_fingerprint(), "fp");
  EXPECT_TRUE(reader.is_finished("x"));
  EXPECT_THROW(reader.record_finished(sample_spec("y"), ok_outcome()), StoreError);
}

TEST(RunStore, FindingsAndMetaRoundTrip) {
  testing::TempDir tmp;
  {
    auto store = RunStore::open(tmp.path(), "demo", "fp");
    detectors::Finding a, b;
    a.detector = "races";
    a.title = "first";
    a.artifacts = {{"g", "text/vnd.graphviz", "digraph{}"}};
    b.detector = "outcome";
    b.title = "second";
    b.run_id = "x";
    store.save_findings({a, b, a});
    EXPECT_EQ(store.load_findings().size(), 3u);
    store.save_findings({b, a});  // replaces, never appends
    store.set_meta("command_line", "scalefuzz run c.yaml");
    EXPECT_THROW(store.set_meta("campaign", "other"), StoreError);
  }
  auto store = RunStore::open_existing(tmp.path());
  const auto findings = store.load_findings();
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].title, "second");
  EXPECT_EQ(findings[1].artifacts.at(0).content, "digraph{}");
  EXPECT_EQ(store.meta("command_line"), "scalefuzz run c.yaml");
  EXPECT_FALSE(store.meta("nonexistent"));
}

TEST(RunStore, RejectsRunIdsThatAreNotFileNames) {
  testing::TempDir tmp;
  auto store = RunStore::open(tmp.path(), "demo", "fp");
  EXPECT_THROW(store.prepare_run(sample_spec("../escape")), StoreError);
  EXPECT_THROW(store.prepare_run(sample_spec("")), StoreError);
  EXPECT_THROW(store.record_finished(sample_spec(".."), ok_outcome()), StoreError);
}

// A harness SIGKILLed while it writes must leave a store that opens cleanly
// and in which every finished row is complete.
TEST(RunStore, SurvivesSigkillInTheMiddleOfWrites) {
  testing::TempDir tmp;
  const auto out = tmp.path() / "out";
  { RunStore::open(out, "demo", "fp"); }
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    try {
      auto store = RunStore::open(out, "demo", "fp");
      for (int i = 0;; ++i) {
        auto spec = sample_spec("k" + std::to_string(i));
        store.prepare_run(spec);
        store.record_finished(spec, sample_hang(i));
      }
    } catch (...) {
      ::_exit(3);
    }
  }
  // Let it write for a while, then kill it without warning.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  std::size_t seen = 0;
  while (seen < 30 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    try {
      seen = RunStore::open_existing(out, StoreAccess::ReadOnly).finished_count();
    } catch (const StoreError&) {
    }
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "writer exited by itself with status " << status;
  ASSERT_GE(seen, 30u);

  auto store = RunStore::open(out, "demo", "fp");  // runs quick_check
  const auto runs = store.runs();
  std::size_t unfinished = 0;
  for (const auto& r : runs) {
    if (!r.finished()) {
      ++unfinished;
      continue;
    }
    EXPECT_EQ(r.outcome->stacks.size(), 2u);
    EXPECT_TRUE(fs::exists(r.dir / "outcome.json"));
  }
  EXPECT_LE(unfinished, 1u) << "only the run in flight at the kill may be unfinished";
  EXPECT_GE(runs.size(), 30u);
}

TEST(RunStore, InvalidUtf8InOutputIsStoredNotFatal) {
  testing::TempDir tmp;
  auto store = RunStore::open(tmp.path(), "demo", "fp");
  auto outcome = testing::sample_hang();
  outcome.stacks[0].text = "frame \xff\xfe in binary junk";
  outcome.detail = "bad \xc3";
  const auto spec = testing::sample_spec("utf");
  store.record_finished(spec, outcome);
  const auto rec = store.run("utf");
  ASSERT_TRUE(rec && rec->finished());
  EXPECT_EQ(rec->outcome->stacks[0].text, "frame \xEF\xBF\xBD\xEF\xBF\xBD in binary junk");
}

TEST(RunStore, KeepsTheLaunchersOutcomeFile) {
  testing::TempDir tmp;
  auto store = RunStore::open(tmp.path(), "demo", "fp");
  const auto spec = testing::sample_spec("l1");
  const auto dir = store.prepare_run(spec);
  const std::string launcher_file =
      "{\"format\": \"scalefuzz-outcome\", \"version\": 1, \"kind\": \"hang\", \"exit_code\": -1, \"signal\": 9,"
      " \"detail\": \"timeout after 10s\", \"wall_seconds\": 10.5, \"stacks\": [], \"launch_id\": \"abc\"}\n";
  std::ofstream(dir / "outcome.json") << launcher_file;
  store.record_finished(spec, testing::sample_hang());
  EXPECT_EQ(testing::read_file(dir / "outcome.json"), launcher_file);
  // And the launcher's file reads back with the store's reader.
  EXPECT_EQ(nlohmann::json::parse(launcher_file).get<Outcome>().kind, OutcomeKind::Hang);
  const auto written = nlohmann::json(testing::sample_hang());
  EXPECT_EQ(written.at("format"), "scalefuzz-outcome");
  EXPECT_EQ(written.at("version"), 1);
}

}  // namespace
}  // namespace scalefuzz::harness
