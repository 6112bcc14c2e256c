// report.html's bug headline shares the grouping of findings.json and
// junit.xml (report_bugs), and each technique's section is reached through
// the detector registry.
#include <gtest/gtest.h>

#include "html_headline.hpp"
#include "html_sections.hpp"
#include "report_fixture.hpp"
#include "scalefuzz/analysis/registry.hpp"

namespace scalefuzz::harness {
namespace {

detectors::Finding finding(const std::string& detector, const std::string& kind, const std::string& run,
                           const std::string& location, std::vector<int> ranks = {},
                           detectors::Severity severity = detectors::Severity::Error) {
  detectors::Finding f;
  f.detector = detector;
  f.kind = kind;
  f.run_id = run;
  f.location = location;
  f.ranks = std::move(ranks);
  f.severity = severity;
  f.title = detector + " " + kind;
  return f;
}

// The n-th <li class="bug ..."> opening tag (1-based), or "".
std::string bug_tag(const std::string& html, int n) {
  const auto at = html.find("id=\"bug-" + std::to_string(n) + "\"");
  if (at == std::string::npos) return {};
  const auto begin = html.rfind("<li", at);
  return html.substr(begin, html.find('>', at) - begin + 1);
}

TEST(HtmlHeadline, ListsTheBugsOfFindingsJsonRaceBeforeTheHangItCauses) {
  testing::TempDir tmp;
  ReportData data = testing::report_of(tmp.path(), "race-hang",
                                            {testing::make_run(tmp.path(), "np4-app-r0", 4, "none", 0, OutcomeKind::Hang, 5, "timeout")});
  data.runs.push_back(testing::make_run(tmp.path(), "np4-app-r1", 4, "none", 1, OutcomeKind::Ok, 1));
  // In analysis order: the hung run's outcome and localizers, then the race.
  data.findings = {finding("outcome", "hang", "np4-app-r0", "", {0, 1, 2, 3}),
                   finding("mpipd", "deadlock", "np4-app-r0", "wait_all (/src/case3.c:90)", {1, 2}),
                   finding("pdg", "lp-task", "np4-app-r0", "wait_all (/src/case3.c:90)", {1}),
                   finding("races", "unintended-match", "np4-app-r1", "recv_loop (/src/case3.c:30)", {0}),
                   finding("kcca", "scale-model", "", "", {}, detectors::Severity::Info)};
  const auto bugs = report_bugs(data);
  const auto html = HtmlReporter().render(data);
  EXPECT_NE(html.find("<h2>Bugs (2)</h2>"), std::string::npos) << "MPI-PD and PDG at the same code are one bug";
  EXPECT_EQ(bug_tag(html, 3), "") << "informational findings are no headline";
  const auto first = bug_tag(html, 1), second = bug_tag(html, 2);
  EXPECT_NE(first.find("data-detector=\"races\""), std::string::npos) << first;
  EXPECT_NE(first.find("data-fingerprint=\"" + bugs.at(0).fingerprint + "\""), std::string::npos) << first;
  EXPECT_NE(second.find("data-kind=\"deadlock\""), std::string::npos) << second;
  EXPECT_NE(second.find("data-fingerprint=\"" + bugs.at(1).fingerprint + "\""), std::string::npos) << second;
  const auto line = html.substr(html.find("id=\"bug-2\""), 1200);
  EXPECT_NE(line.find("case3.c:90"), std::string::npos) << line;
  EXPECT_NE(line.find("found by <b>outcome + mpipd + pdg</b>"), std::string::npos) << line;
  EXPECT_NE(line.find("ranks <b>0-3</b>"), std::string::npos) << line;
}

TEST(HtmlSections, EveryRegisteredDetectorNamesASectionThatExists) {
  for (const auto& info : analysis::registry())
    EXPECT_NE(html::find_report_section(info.report_section), nullptr)
        << info.name << " names report section '" << info.report_section << "' that report.html cannot draw";
}

TEST(HtmlSections, TheRegistryDecidesWhichSectionsThePageShows) {
  testing::TempDir tmp;
  ReportData data = testing::report_of(tmp.path(), "all",
                                            {testing::make_run(tmp.path(), "np4-none-r0", 4, "none", 0, OutcomeKind::Ok, 1)});
  EXPECT_TRUE(html::sections_for(data).empty());
  for (const auto& info : analysis::registry())
    data.findings.push_back(finding(info.name, "something", "np4-none-r0", "f (/src/a.c:1)", {0}));
  std::set<std::string> ids;
  for (const auto& info : analysis::registry()) ids.insert(info.report_section);
  EXPECT_EQ(html::sections_for(data).size(), ids.size()) << "one section per id (mpipd and pdg share hangs)";
  const auto html = HtmlReporter().render(data);
  for (const auto& id : ids) {
    EXPECT_NE(html.find("<section id=\"" + id + "\">"), std::string::npos) << id;
    EXPECT_NE(html.find("<a href=\"#" + id + "\">"), std::string::npos) << "nav link to " << id;
  }
}

// The chart itself: HtmlDmtracker.* in detectors/dmtracker/tests.
TEST(HtmlSections, AnArtifactItsSectionDrawsIsLinkedFromTheCardNotDrawnTwice) {
  testing::TempDir tmp;
  ReportData data = testing::report_of(tmp.path(), "dm",
                                            {testing::make_run(tmp.path(), "np4-none-r0", 4, "none", 0, OutcomeKind::Ok, 1)});
  auto outlier = finding("dmtracker", "outlier-process", "np4-none-r0", "copy_halo (/src/halo.c:12)", {2},
                         detectors::Severity::Warning);
  outlier.details = {{"distance_k", 2.5},
                     {"average", 0.5},
                     {"k", 1},
                     {"factor", 2.0},
                     {"phase", "whole run"},
                     {"distance_k_per_rank", {{"0", 0.1}, {"1", 0.125}, {"2", 2.5}, {"10", 0.2}}}};
  outlier.artifacts.push_back({"dmtracker-distance-k", "image/svg+xml", "<svg id=\"dm-svg-bars\"></svg>"});
  outlier.artifacts.push_back({"notes", "text/plain", "drawn by the card"});
  data.findings.push_back(outlier);
  const auto html = HtmlReporter().render(data);
  ASSERT_NE(html.find("<section id=\"dmtracker\">"), std::string::npos);
  EXPECT_NE(html.find("class=\"chart-config\" data-for=\"chart-dmtracker-1\""), std::string::npos);
  EXPECT_EQ(html.find("dm-svg-bars"), std::string::npos) << "the SVG artifact gives way to the chart";
  EXPECT_NE(html.find("<p class=\"muted\"><a href=\"#dmtracker\">Distance^k chart: Data movement</a></p>"),
            std::string::npos) << "the card links to the section";
  EXPECT_NE(html.find("drawn by the card"), std::string::npos) << "an artifact the section does not draw stays";
}

TEST(HtmlHeadline, KindsReadAsTheirTechniqueNamesThem) {
  detectors::Finding f = finding("races", "unintended-match", "r", "");
  EXPECT_EQ(html::bug_kind_label(f), "message race") << "races' registration";
  f = finding("pdg", "aborted-task", "r", "");
  EXPECT_EQ(html::bug_kind_label(f), "task that called MPI_Abort");
  f = finding("outcome", "crashed", "r", "");
  EXPECT_EQ(html::bug_kind_label(f), "crash") << "the harness's own outcome findings";
  f = finding("usage", "request-leak", "r", "");
  EXPECT_EQ(html::bug_kind_label(f), "request leak") << "no label: the kind, '-' as ' '";
}

}  // namespace
}  // namespace scalefuzz::harness
