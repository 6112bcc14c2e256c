#include <gtest/gtest.h>

#include "report_fixture.hpp"

namespace scalefuzz::harness {
namespace {

// The opening tag of the summary cell for (scale, noise).
std::string matrix_cell(const std::string& html, const std::string& scale, const std::string& noise) {
  const auto table = html.find("id=\"summary-table\"");
  const auto key = "data-scale=\"" + scale + "\" data-noise=\"" + noise + "\"";
  const auto at = html.find(key, table);
  if (table == std::string::npos || at == std::string::npos) return {};
  const auto begin = html.rfind("<td", at);
  return html.substr(begin, html.find('>', at) - begin + 1);
}

TEST(HtmlReporter, SummaryMatrixCountsOutcomesByScaleAndNoise) {
  testing::TempDir tmp;
  const auto html = HtmlReporter().render(testing::make_report_data(tmp.path()));
  const auto cell = matrix_cell(html, "4", "none");
  EXPECT_NE(cell.find("data-ok=\"2\""), std::string::npos) << cell;
  EXPECT_NE(cell.find("data-hang=\"1\""), std::string::npos) << cell;
  EXPECT_NE(cell.find("w-hang"), std::string::npos) << "a mixed cell is coloured by its worst outcome: " << cell;
  const auto crash_cell = matrix_cell(html, "8", "none");
  EXPECT_NE(crash_cell.find("data-crashed=\"1\""), std::string::npos) << crash_cell;
  EXPECT_NE(crash_cell.find("data-mpi-abort=\"1\""), std::string::npos) << crash_cell;
  EXPECT_EQ(crash_cell.find("data-ok"), std::string::npos) << crash_cell;
  const auto total = matrix_cell(html, "*", "*");
  EXPECT_NE(total.find("data-ok=\"3\""), std::string::npos) << total;
  EXPECT_NE(total.find("data-unfinished=\"1\""), std::string::npos) << total;
  EXPECT_NE(html.find("data-verdict=\"findings\""), std::string::npos);
}

TEST(HtmlReporter, RendersDotArtifactsAsInlineSvg) {
  testing::TempDir tmp;
  const auto html = HtmlReporter().render(testing::make_report_data(tmp.path()));
  const auto figure = html.find("data-media-type=\"text/vnd.graphviz\"");
  ASSERT_NE(figure, std::string::npos);
  const auto svg = html.find("<svg", figure);
  ASSERT_NE(svg, std::string::npos);
  EXPECT_LT(svg, html.find("</figure>", figure));
  EXPECT_NE(html.find("<title>rank1_lp</title>", svg), std::string::npos) << "dot's node title in the inline SVG";
  EXPECT_EQ(html.find("<?xml"), std::string::npos) << "XML prologs must be stripped before inlining";
  EXPECT_NE(html.find("id=\"kcca-plot\""), std::string::npos) << "SVG artifacts are inlined";
}

TEST(HtmlReporter, MissingDotFallsBackToTheSource) {
  testing::TempDir tmp;
  HtmlOptions options;
  options.dot_program = (tmp.path() / "no-such-dot").string();
  const auto html = HtmlReporter(options).render(testing::make_report_data(tmp.path()));
  EXPECT_NE(html.find("Graph not rendered"), std::string::npos);
  EXPECT_NE(html.find("<pre class=\"dot-source\">digraph pdg { &quot;rank0_waits&quot;"), std::string::npos);
  EXPECT_NE(html.find("progress &lt;&amp;&gt;"), std::string::npos);
}

TEST(HtmlReporter, EscapesEverythingAndLoadsNothingExternal) {
  testing::TempDir tmp;
  const auto html = HtmlReporter().render(testing::make_report_data(tmp.path()));
  EXPECT_EQ(html.find(testing::kNasty), std::string::npos) << "raw markup from data leaked into the page";
  EXPECT_NE(html.find("&lt;b&gt;x &amp; &quot;y&quot; &#39;z&#39;&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(html.find("MPI_Ssend (&lt;&amp;&gt; &quot;dst&quot;)"), std::string::npos) << "stacks are shown, escaped";
  EXPECT_NE(html.find("warning: &lt;unexpected&gt; &amp; odd"), std::string::npos) << "stderr tail is shown";
  // Scripts are inline (Chart.js, the copy buttons); nothing is fetched.
  for (const char* forbidden : {"<script src", "<link", " src=", "@import", "url(", "<iframe"})
    EXPECT_EQ(html.find(forbidden), std::string::npos) << forbidden;
}

TEST(HtmlReporter, OpensWithOneHeadlinePerBugAndInlinesChartJs) {
  testing::TempDir tmp;
  const auto html = HtmlReporter().render(testing::make_report_data(tmp.path()));
  const auto bugs = html.find("<section id=\"bugs\">");
  ASSERT_NE(bugs, std::string::npos);
  EXPECT_LT(bugs, html.find("<section id=\"summary\">")) << "the bugs come first";
  EXPECT_NE(html.find("<li class=\"bug sev-", bugs), std::string::npos);
  EXPECT_NE(html.find("class=\"chart-config\""), std::string::npos) << "the outcome chart";
  if (std::filesystem::exists(HtmlOptions().chartjs))
    EXPECT_NE(html.find("Chart.js v"), std::string::npos) << "Chart.js is inlined";
  HtmlOptions without;
  without.chartjs = tmp.path() / "no-chart.js";
  const auto plain = HtmlReporter(without).render(testing::make_report_data(tmp.path()));
  EXPECT_EQ(plain.find("Chart.js v"), std::string::npos);
  EXPECT_NE(plain.find("Chart.js was not available"), std::string::npos) << "the charts say why they are missing";
}

TEST(HtmlReporter, EmptyCampaignStillRenders) {
  testing::TempDir tmp;
  const ReportData data = testing::report_of(tmp.path(), "empty");
  HtmlReporter().write(data);
  const auto html = testing::read_file(tmp.path() / "report.html");
  EXPECT_NE(html.find("No runs recorded"), std::string::npos);
  EXPECT_NE(html.find("data-verdict=\"clean\""), std::string::npos);
}

TEST(DefaultReporters, WriteAllThreeFiles) {
  testing::TempDir tmp;
  const auto data = testing::make_report_data(tmp.path());
  for (auto& r : default_reporters()) r->write(data);
  for (const char* f : {"findings.json", "junit.xml", "report.html"})
    EXPECT_TRUE(std::filesystem::is_regular_file(tmp.path() / f)) << f;
}

TEST(HtmlReporter, NightsSectionFromTrendAndDiff) {
  testing::TempDir tmp;
  const auto data = testing::make_report_data(tmp.path());
  EXPECT_EQ(HtmlReporter().render(data).find("id=\"nights\""), std::string::npos) << "no trend.json: no section";
  std::ofstream(tmp.path() / "trend.json")
      << R"({"format": "scalefuzz-trend", "format_version": 1, "nights": [
            {"night": "2026-01-01", "verdict": "clean", "bugs": 1, "serious_bugs": 0, "new": null, "gone": null},
            {"night": "2026-01-02", "verdict": "findings", "bugs": 2, "serious_bugs": 1, "new": 1, "gone": 0}]})";
  std::ofstream(tmp.path() / "diff.json")
      << R"({"format": "scalefuzz-diff", "format_version": 1, "fail_on": "new", "fails": true,
            "counts": {"new": 1, "still_there": 0, "gone": 0},
            "new": [{"fingerprint": "9af675cbc2570d99", "signature": "kcca/scale-anomaly at sf_allgather <x>.c:106"}],
            "gone": []})";
  const std::string html = HtmlReporter().render(data);
  ASSERT_NE(html.find("<section id=\"nights\">"), std::string::npos);
  EXPECT_NE(html.find("<b>1 new</b>"), std::string::npos);
  EXPECT_NE(html.find("<code>9af675cbc2570d99</code> kcca/scale-anomaly at sf_allgather &lt;x&gt;.c:106"),
            std::string::npos);
  EXPECT_NE(html.find("<td>2026-01-02</td><td>findings</td>"), std::string::npos);
  EXPECT_NE(html.find("1 of 2</td><td>1</td><td>0</td>"), std::string::npos) << html.substr(html.find("trend"), 900);
}

// Issue 34: a night whose bugs were all seen before passes (--fail-on new):
// the banner says so, not FAIL; a failing night still says FAIL.
TEST(HtmlReporter, BannerFollowsTheNightsJobVerdict) {
  testing::TempDir tmp;
  const auto data = testing::make_report_data(tmp.path());
  const std::string before = HtmlReporter().render(data);
  ASSERT_NE(before.find("data-verdict=\"findings\"><b>FAIL</b>"), std::string::npos) << "the fixture has findings";
  std::ofstream(tmp.path() / "diff.json")
      << R"({"format": "scalefuzz-diff", "format_version": 1, "fail_on": "new", "fails": false,
            "counts": {"new": 0, "still_there": 2, "gone": 0}, "new": [], "gone": []})";
  const std::string passing = HtmlReporter().render(data);
  EXPECT_NE(passing.find("data-job=\"pass\"><b>PASS</b> the job passes with --fail-on new (0 new, 2 still there)"),
            std::string::npos)
      << passing.substr(passing.find("id=\"verdict\""), 300);
  std::ofstream(tmp.path() / "diff.json", std::ios::trunc)
      << R"({"format": "scalefuzz-diff", "format_version": 1, "fail_on": "new", "fails": true,
            "counts": {"new": 1, "still_there": 1, "gone": 0}, "new": [], "gone": []})";
  EXPECT_NE(HtmlReporter().render(data).find("data-job=\"fail\"><b>FAIL</b> the job fails"), std::string::npos);
}

}  // namespace
}  // namespace scalefuzz::harness
