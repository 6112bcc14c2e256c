// The human listing.
#include <gtest/gtest.h>

#include <sstream>

#include "scalefuzz/trace/print.hpp"
#include "trace_test_util.hpp"

namespace scalefuzz::trace {
namespace {

TEST(TracePrint, ListsEventsSitesAndInProgressCall) {
  testing::RankBuilder b(0, 2);
  b.add(OpClass::Init);
  b.recv(kAnySource, kAnyTag, 1, 42);
  b.send(1, 7, 4096);
  b.rt.events.back().t_exit_ns = 0;
  b.rt.last_event_in_progress = true;
  CallSiteInfo site;
  site.frames = {0xabc};
  site.symbolized = {Frame{0xabc, "/bin/app", 0xab0, "main", "app.c", 12}};
  b.rt.sites.push_back(site);
  b.rt.warnings.push_back("markov: file missing, no data");
  RunTrace run;
  run.run_id = "r1";
  run.ranks = {b.rt, RankTrace{}};

  std::ostringstream sym, raw;
  print_run(run, sym, true);
  print_run(run, raw, false);
  std::string s = sym.str();
  EXPECT_NE(s.find("run r1: 2 ranks"), std::string::npos) << s;
  EXPECT_NE(s.find("status(src=1 tag=42"), std::string::npos) << s;
  EXPECT_NE(s.find("ANY"), std::string::npos);
  EXPECT_NE(s.find("4096"), std::string::npos);
  EXPECT_NE(s.find("IN PROGRESS"), std::string::npos);
  EXPECT_NE(s.find("<Recv>"), std::string::npos);  // op id unknown to the op table: class shown
  EXPECT_NE(s.find("warning: markov: file missing"), std::string::npos);
  EXPECT_NE(s.find("main (app.c:12)"), std::string::npos) << s;
  EXPECT_NE(s.find("rank 1: no trace files"), std::string::npos);
  EXPECT_EQ(raw.str().find("main (app.c:12)"), std::string::npos);
  EXPECT_NE(raw.str().find("0xabc"), std::string::npos);
}

}  // namespace
}  // namespace scalefuzz::trace
