// Opens report.html in real headless Chromium: the DOM it renders must hold
// the summary table with the right counts and the SVG dot produced; a
// screenshot is left next to the test binary for a person to look at.
#include <gtest/gtest.h>

#include <regex>

#include "headless_chromium.hpp"
#include "report_fixture.hpp"

namespace scalefuzz::harness {
namespace {

namespace fs = std::filesystem;

class BrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    data_ = testing::make_report_data(tmp_.path() / "out");
    HtmlReporter().write(data_);
    page_ = "file://" + (tmp_.path() / "out" / "report.html").string();
  }

  ProcessResult chromium(std::vector<std::string> extra) {
    auto r = testing::run_headless_chromium(tmp_.path() / ("profile-" + std::to_string(profiles_++)), extra);
    if (!r.started) ADD_FAILURE() << "chromium could not be started: " << r.err;
    return r;
  }

  testing::TempDir tmp_;
  ReportData data_;
  std::string page_;
  int profiles_ = 0;
};

TEST_F(BrowserTest, RenderedDomHasSummaryCountsAndDotSvg) {
  const auto r = chromium({"--dump-dom", page_});
  ASSERT_TRUE(r.succeeded()) << "exit " << r.exit_code << " signal " << r.signal << "\n" << r.err;
  const std::string& dom = r.out;
  ASSERT_NE(dom.find("id=\"summary-table\""), std::string::npos) << dom.substr(0, 2000);

  // The browser's serialization of the parsed page: attribute order is kept.
  const std::regex cell4(R"re(<td class="cell w-hang" data-scale="4" data-noise="none" data-hang="1" data-ok="2">)re");
  EXPECT_TRUE(std::regex_search(dom, cell4)) << "summary cell for 4 ranks without noise";
  EXPECT_TRUE(std::regex_search(dom, std::regex(R"re(data-scale="8" data-noise="none" data-crashed="1" data-mpi-abort="1")re")));
  EXPECT_TRUE(std::regex_search(dom, std::regex(R"re(data-scale="\*" data-noise="\*"[^>]*data-ok="3")re")));
  EXPECT_NE(dom.find("<span class=\"pill o-hang\">1 hang</span>"), std::string::npos);

  // The dot artifact became an SVG element inside its figure.
  const auto figure = dom.find("data-media-type=\"text/vnd.graphviz\"");
  ASSERT_NE(figure, std::string::npos);
  const auto svg = dom.find("<svg", figure);
  ASSERT_NE(svg, std::string::npos);
  EXPECT_LT(svg, dom.find("</figure>", figure));
  EXPECT_NE(dom.find("<title>rank1_lp</title>", svg), std::string::npos);
  // Escaped text stays text: no element was injected by the data.
  EXPECT_EQ(dom.find("<b>x &amp;"), std::string::npos);
  EXPECT_NE(dom.find("&lt;b&gt;x &amp; \"y\" 'z'&lt;/b&gt;"), std::string::npos);
}

TEST_F(BrowserTest, ScreenshotForAPerson) {
  const fs::path shot = fs::path(SCALEFUZZ_TEST_ARTIFACT_DIR) / "report-screenshot.png";
  fs::remove(shot);
  const auto r = chromium({"--screenshot=" + shot.string(), "--window-size=1280,2400", "--hide-scrollbars", page_});
  ASSERT_TRUE(r.succeeded()) << r.err;
  ASSERT_TRUE(fs::is_regular_file(shot));
  EXPECT_GT(fs::file_size(shot), 20000u) << "a blank page compresses to almost nothing";
  // Keep the page beside the screenshot so it can be opened too.
  fs::copy_file(tmp_.path() / "out" / "report.html", fs::path(SCALEFUZZ_TEST_ARTIFACT_DIR) / "report-sample.html",
                fs::copy_options::overwrite_existing);
  std::cout << "screenshot: " << shot << "\n";
}

}  // namespace
}  // namespace scalefuzz::harness
