// The report of a real campaign (real mpiexec, a real hang and a real crash)
// opened in real headless Chromium: what the browser renders must show the
// outcomes, the findings and their evidence. A screenshot is left in the
// build tree for a person to look at.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "cli_support.hpp"
#include "headless_chromium.hpp"

namespace scalefuzz::e2e {
namespace {

using ::testing::HasSubstr;

class CampaignReportInBrowser : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir();
    const fs::path file = tmp_->path() / "c.yaml";
    // crash_in_compute at 3 ranks crashes rank 1; deadlock_cycle hangs.
    write_file(file,
               "campaign: browser_e2e\n"
               "app: { command: [\"{build}/scenarios/{program}\"] }\n"
               "scales: [3]\n"
               "parameters: { program: [ring, deadlock_cycle, crash_in_compute] }\n"
               "timeout: 5s\n");
    out_ = tmp_->path() / "out";
    run_ = new harness::ProcessResult(run_scalefuzz({"run", file.string(), "--out", out_.string()}));
  }
  static void TearDownTestSuite() {
    delete run_;
    delete tmp_;
  }

  harness::ProcessResult chromium(std::vector<std::string> extra) {
    auto r = harness::testing::run_headless_chromium(tmp_->path() / ("profile-" + std::to_string(profiles_++)), extra);
    if (!r.started) ADD_FAILURE() << "chromium could not be started: " << r.err;
    return r;
  }
  std::string page() const { return "file://" + (out_ / "report.html").string(); }

  static TempDir* tmp_;
  static fs::path out_;
  static harness::ProcessResult* run_;
  int profiles_ = 0;
};

TempDir* CampaignReportInBrowser::tmp_ = nullptr;
fs::path CampaignReportInBrowser::out_;
harness::ProcessResult* CampaignReportInBrowser::run_ = nullptr;

TEST_F(CampaignReportInBrowser, ShowsOutcomesFindingsAndStacks) {
  ASSERT_EQ(run_->exit_code, 1) << run_->out << run_->err;
  const auto r = chromium({"--dump-dom", page()});
  ASSERT_TRUE(r.succeeded()) << r.err;
  const std::string& dom = r.out;
  // Verdict and the summary cell of the one scale.
  EXPECT_THAT(dom, HasSubstr("FAIL"));
  EXPECT_TRUE(std::regex_search(dom, std::regex(R"re(data-scale="3" data-noise="none"[^>]*data-crashed="1")re")))
      << dom.substr(0, 3000);
  EXPECT_TRUE(std::regex_search(dom, std::regex(R"re(data-scale="3" data-noise="none"[^>]*data-hang="1")re")));
  EXPECT_TRUE(std::regex_search(dom, std::regex(R"re(data-scale="3" data-noise="none"[^>]*data-ok="1")re")));
  // The findings name the runs, and the hang's evidence carries the stacks.
  EXPECT_THAT(dom, HasSubstr("np3-programdeadlock_cycle-none-r0"));
  EXPECT_THAT(dom, HasSubstr("np3-programcrash_in_compute-none-r0"));
  EXPECT_THAT(dom, HasSubstr("SIGSEGV"));
  EXPECT_THAT(dom, HasSubstr("send_then_receive"));
}

TEST_F(CampaignReportInBrowser, RendersToAScreenshot) {
  ASSERT_EQ(run_->exit_code, 1) << run_->err;
  const fs::path shot = fs::path(SCALEFUZZ_BUILD_TREE) / "tests" / "campaign_report.png";
  fs::remove(shot);
  const auto r = chromium({"--screenshot=" + shot.string(), "--window-size=1280,2400", "--hide-scrollbars", page()});
  ASSERT_TRUE(r.succeeded()) << r.err;
  ASSERT_TRUE(fs::exists(shot));
  // A blank page compresses to a few KB; a rendered report is far larger.
  EXPECT_GT(fs::file_size(shot), 40000u);
}

}  // namespace
}  // namespace scalefuzz::e2e
