// The path `scalefuzz report DIR` takes: a store on disk -> ReportData -> files.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report_fixture.hpp"

namespace scalefuzz::harness {
namespace {

TEST(ReportFromStore, CollectsRunsFindingsAndMeta) {
  testing::TempDir tmp;
  const auto out = tmp.path() / "out";
  const auto fixture = testing::make_report_data(tmp.path() / "fixture");
  {
    auto store = RunStore::open(out, "ringdemo", "fp");
    for (const auto& r : fixture.runs) {
      store.prepare_run(r.spec);
      if (r.outcome) store.record_finished(r.spec, *r.outcome);
    }
    store.save_findings(fixture.findings);
    store.set_meta("command_line", "scalefuzz run ring.yaml");
    store.set_meta("started_at", "2026-11-22T05:00:00.000Z");
  }
  const auto store = RunStore::open_existing(out, StoreAccess::ReadOnly);
  const auto data = report_data_from_store(store);
  EXPECT_EQ(data.campaign, "ringdemo");
  EXPECT_EQ(data.out_dir, out);
  EXPECT_EQ(data.command_line, "scalefuzz run ring.yaml");
  EXPECT_EQ(data.started_at, "2026-11-22T05:00:00.000Z");
  EXPECT_TRUE(data.finished_at.empty());
  ASSERT_EQ(data.runs.size(), fixture.runs.size());
  ASSERT_EQ(data.findings.size(), fixture.findings.size());
  const auto s = summarize(data);
  EXPECT_EQ(s.by_outcome.at("ok"), 3u);
  EXPECT_EQ(s.unfinished, 1u);
  EXPECT_EQ(s.failed_runs, 4u);

  for (auto& r : default_reporters()) r->write(data);
  const auto doc = nlohmann::json::parse(testing::read_file(out / "findings.json"));
  EXPECT_EQ(doc.at("summary").at("runs"), 8);
  const auto html = testing::read_file(out / "report.html");
  EXPECT_NE(html.find("<title>rank1_lp</title>"), std::string::npos);
}

}  // namespace
}  // namespace scalefuzz::harness
