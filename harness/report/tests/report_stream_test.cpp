// Streaming reporters (begin, per finished run, finalize) and report files
// put in place together or not at all.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "report_fixture.hpp"

namespace scalefuzz::harness {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> leftovers(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    const auto name = e.path().filename().string();
    if (name.find(".tmp.") != std::string::npos || name.find(".old.") != std::string::npos) names.push_back(name);
  }
  return names;
}

TEST(ReportFiles, CommitsEveryFileOrNone) {
  testing::TempDir tmp;
  const auto a = tmp.path() / "findings.json", b = tmp.path() / "junit.xml";
  scalefuzz::testing::write_file(a, "old a");
  fs::create_directories(b / "in-the-way");  // a directory where a report goes
  {
    ReportFiles files;
    files.stage(a, "new a");
    files.stage(b, "new b");
    EXPECT_THROW(files.commit(), ReportError);
  }
  EXPECT_EQ(testing::read_file(a), "old a") << "a report was changed although another could not be written";
  EXPECT_TRUE(fs::is_directory(b));
  EXPECT_TRUE(leftovers(tmp.path()).empty());

  fs::remove_all(b);
  scalefuzz::testing::write_file(b, "old b");
  ReportFiles files;
  files.stage(a, "new a");
  files.stage(b, "new b");
  EXPECT_EQ(files.commit(), (std::vector<fs::path>{a, b}));
  EXPECT_EQ(testing::read_file(a), "new a");
  EXPECT_EQ(testing::read_file(b), "new b");
  EXPECT_TRUE(leftovers(tmp.path()).empty());
}

TEST(ReportFiles, UncommittedStagesLeaveNothing) {
  testing::TempDir tmp;
  {
    ReportFiles files;
    files.stage(tmp.path() / "findings.json", "x");
  }
  EXPECT_FALSE(fs::exists(tmp.path() / "findings.json"));
  EXPECT_TRUE(leftovers(tmp.path()).empty());
}

TEST(ReportFiles, FinalizeWritesNoReportWhenOneCannotBeWritten) {
  testing::TempDir tmp;
  auto data = testing::make_report_data(tmp.path() / "out");
  scalefuzz::testing::write_file(data.out_dir / "findings.json", "stored");
  fs::create_directories(data.out_dir / "junit.xml");
  EXPECT_THROW(finalize_reports(data, default_reporters()), ReportError);
  EXPECT_EQ(testing::read_file(data.out_dir / "findings.json"), "stored");
  EXPECT_FALSE(fs::exists(data.out_dir / "report.html"));
}

// A store of four planned runs; the stream follows them as they finish.
TEST(ReportStream, FindingsAndJunitListEveryFinishedRunAfterEachRun) {
  testing::TempDir tmp;
  const auto out = tmp.path() / "out";
  auto fixture = testing::make_report_data(tmp.path() / "fixture");
  fixture.runs.resize(4);  // ok, ok, hang, ok
  auto store = RunStore::open(out, "streamdemo", "fp");
  // The first run finished in an earlier session (a resumed campaign).
  store.prepare_run(fixture.runs[0].spec);
  store.record_finished(fixture.runs[0].spec, *fixture.runs[0].outcome);

  std::ostringstream log;
  ReportStream stream(store, default_reporters(), &log);
  std::vector<RunSpec> planned;
  for (const auto& r : fixture.runs) planned.push_back(r.spec);
  stream.begin(planned);

  auto outcomes = [&] {
    const auto doc = nlohmann::json::parse(testing::read_file(out / "findings.json"));
    std::map<std::string, std::string> by_run;
    for (const auto& r : doc.at("runs")) by_run[r.at("run_id")] = r.at("outcome");
    return by_run;
  };
  auto junit_mentions = [&](const std::string& what) {
    return testing::read_file(out / "junit.xml").find(what) != std::string::npos;
  };
  auto first = outcomes();
  ASSERT_EQ(first.size(), 4u);
  EXPECT_EQ(first.at(fixture.runs[0].spec.run_id), to_string(fixture.runs[0].outcome->kind));
  for (std::size_t i = 1; i < 4; ++i) EXPECT_EQ(first.at(fixture.runs[i].spec.run_id), "unfinished");
  EXPECT_TRUE(junit_mentions("<testsuites"));
  EXPECT_FALSE(fs::exists(out / "report.html")) << "report.html is drawn at finalize only";

  for (std::size_t i = 1; i < 4; ++i) {
    const auto& r = fixture.runs[i];
    store.prepare_run(r.spec);
    stream.run_started(r.spec);
    store.record_finished(r.spec, *r.outcome);
    stream.run_finished(r.spec, *r.outcome);
    const auto now = outcomes();
    for (std::size_t j = 0; j < 4; ++j)
      EXPECT_EQ(now.at(fixture.runs[j].spec.run_id),
                j <= i ? to_string(fixture.runs[j].outcome->kind) : std::string("unfinished"))
          << "after run " << i << ", run " << j;
  }
  EXPECT_TRUE(log.str().empty()) << log.str();
  EXPECT_TRUE(leftovers(out).empty());
}

TEST(ReportStream, AReportThatCannotBeWrittenIsSaidOnceAndTheRunsGoOn) {
  testing::TempDir tmp;
  const auto out = tmp.path() / "out";
  auto fixture = testing::make_report_data(tmp.path() / "fixture");
  auto store = RunStore::open(out, "streamdemo", "fp");
  fs::create_directories(out / "junit.xml");
  std::ostringstream log;
  ReportStream stream(store, default_reporters(), &log);
  stream.begin({fixture.runs[0].spec, fixture.runs[1].spec});
  for (int i = 0; i < 2; ++i) {
    Outcome ok;
    store.prepare_run(fixture.runs[i].spec);
    store.record_finished(fixture.runs[i].spec, ok);
    stream.run_finished(fixture.runs[i].spec, ok);
  }
  EXPECT_FALSE(fs::exists(out / "findings.json")) << "findings.json without its junit.xml";
  EXPECT_NE(log.str().find("junit.xml"), std::string::npos) << log.str();
  EXPECT_EQ(log.str().find("warning"), log.str().rfind("warning")) << "said more than once: " << log.str();
}

}  // namespace
}  // namespace scalefuzz::harness
