// DMTracker's section of report.html (report/dmtracker_section.cpp).
#include "dmtracker_section.hpp"
#include "scalefuzz/detectors/dmtracker_details.hpp"

#include <gtest/gtest.h>

// GCC before 14 warns of the members a designated initializer leaves to their defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace {

using scalefuzz::detectors::Finding;
namespace dm = scalefuzz::detectors::dmtracker;

Finding outlier() {
  dm::OutlierProcessDetails d;
  d.distance_k = 2.5;
  d.average = 0.5;
  d.k = 1;
  d.factor = 2.0;
  d.distance_k_per_rank = {{"0", 0.1}, {"1", 0.125}, {"2", 2.5}, {"10", 0.2}};
  return {.detector = "dmtracker", .kind = "outlier-process", .severity = scalefuzz::detectors::Severity::Warning,
          .run_id = "np4-none-r0", .location = "copy_halo (/src/halo.c:12)", .ranks = {2}, .details = d,
          .artifacts = {{"dmtracker-distance-k", "image/svg+xml", "<svg id=\"dm-svg-bars\"></svg>"}}};
}

TEST(HtmlDmtracker, DistanceChartIsDrawnByChartJs) {
  const std::vector<Finding> findings = {outlier()};
  const std::vector<scalefuzz::analysis::RunInfo> runs;
  const std::string html = dm::dmtracker_section({findings, runs});
  ASSERT_EQ(html.rfind("<section id=\"dmtracker\">", 0), 0u) << html;
  const auto config = html.find("class=\"chart-config\" data-for=\"chart-dmtracker-1\"");
  ASSERT_NE(config, std::string::npos) << "a Chart.js configuration";
  const auto start = html.find('>', config) + 1;
  const auto cfg = nlohmann::json::parse(html.substr(start, html.find("</script>", config) - start));
  EXPECT_EQ(cfg["data"]["labels"], (nlohmann::json{"rank 0", "rank 1", "rank 2", "rank 10"})) << "ranks in number order";
  const auto& bars = cfg["data"]["datasets"][1];
  EXPECT_EQ(bars["data"][2], 2.5);
  EXPECT_EQ(bars["backgroundColor"][2], "#b30000") << "the outlier rank is red";
  EXPECT_EQ(bars["backgroundColor"][0], "#5b8def");
  EXPECT_EQ(cfg["data"]["datasets"][0]["data"][0], 1.0) << "the line a rank must pass: factor x average";
  EXPECT_NE(html.find("Distance^1 per rank (whole run)"), std::string::npos) << "the phase defaults to the whole run";
  EXPECT_NE(html.find("<td class=\"num\">2</td><td class=\"num\">2.500</td>"), std::string::npos)
      << "the numbers stay in a table";
}

TEST(HtmlDmtracker, TheSectionDrawsTheDistanceArtifactItself) {
  const Finding f = outlier();
  ASSERT_NE(dm::kReportSection.drawn_here, nullptr);
  EXPECT_EQ(dm::kReportSection.drawn_here(f, f.artifacts.front()), "Distance^k chart: Data movement");
  EXPECT_EQ(dm::kReportSection.drawn_here(f, {"other", "text/plain", "x"}), "");
}

TEST(HtmlDmtracker, DetailsRoundTripWithTheKeysOfFindingsJson) {
  const nlohmann::json j = outlier().details;
  for (const char* key : {"distance_k", "average", "k", "factor", "nearest_kth_rank", "phase", "top_group",
                          "distance_k_per_rank"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["distance_k_per_rank"]["10"], 0.2);
  EXPECT_EQ(j.get<dm::OutlierProcessDetails>().distance_k_per_rank.size(), 4u);
}

}  // namespace
