// The "hangs" section of report.html (report/hangs_section.cpp), shared by
// MPI-PD and the PDG; graphs are rendered by whoever draws the page.
#include "hangs_section.hpp"
#include "scalefuzz/detectors/api/code_location.hpp"
#include "scalefuzz/detectors/mpipd_details.hpp"
#include "scalefuzz/detectors/pdg/details.hpp"

#include <gtest/gtest.h>

// GCC before 14 warns of the members a designated initializer leaves to their defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace {

using scalefuzz::detectors::Finding;

Finding localizer(const std::string& detector, const std::string& kind) {
  return {.detector = detector, .kind = kind, .run_id = "np4-r0", .title = "least-progressed tasks 1-2",
          .ranks = {1, 2},
          .details = {{"code", {{"location", "wait_all (/src/case3.c:90)"},
                                {"source", {{{"line", 90}, {"text", "MPI_Waitall(...);"}, {"current", true}}}}}}}};
}

TEST(HtmlHangs, PdgGraphRenderedByTheGivenRendererMpipdSituationAndCode) {
  Finding pdg = localizer("pdg", "lp-task");
  pdg.artifacts.push_back({"pdg", "text/vnd.graphviz", "digraph { a -> b }"});
  Finding mpipd = localizer("mpipd", "deadlock");
  mpipd.details["explanation"] = "a cycle of waits";
  const std::vector<Finding> findings = {mpipd, pdg};
  const std::vector<scalefuzz::analysis::RunInfo> runs;
  scalefuzz::analysis::ReportInput input{findings, runs};
  std::vector<std::string> rendered;
  input.render_dot = [&](const std::string& dot) {
    rendered.push_back(dot);
    return scalefuzz::html_kit::RenderedGraph{true, "<svg id=\"g" + std::to_string(rendered.size()) + "\"></svg>", ""};
  };
  input.stacks["np4-r0"] = {{0, "#0 0x1 in main at /src/a.c:3\n"}};
  const std::string html = scalefuzz::detectors::pdg::hangs_section(input);
  EXPECT_NE(html.find("<section id=\"hangs\"><h2>Hangs and crashes (1 run localized)</h2>"), std::string::npos) << html;
  EXPECT_NE(html.find("situation <b class=\"situation\">deadlock</b>"), std::string::npos) << html;
  EXPECT_NE(html.find("<p>a cycle of waits</p>"), std::string::npos) << html;
  EXPECT_NE(html.find("least-progressed task(s) <b class=\"lp-tasks\">1-2</b>"), std::string::npos) << html;
  EXPECT_NE(html.find("<b>&gt; 90 | MPI_Waitall(...);</b>"), std::string::npos) << html;
  ASSERT_FALSE(rendered.empty());
  EXPECT_EQ(rendered.front(), "digraph { a -> b }");
  EXPECT_NE(html.find("<div class=\"svg-wrap graph\"><svg id=\"g1\"></svg></div>"), std::string::npos) << html;
}

TEST(HtmlHangs, WithoutARendererTheGraphSourceStaysReadable) {
  Finding pdg = localizer("pdg", "lp-task");
  pdg.artifacts.push_back({"pdg", "text/vnd.graphviz", "digraph { a -> b }"});
  const std::vector<Finding> findings = {pdg};
  const std::vector<scalefuzz::analysis::RunInfo> runs;
  const std::string html = scalefuzz::detectors::pdg::hangs_section({findings, runs});
  EXPECT_NE(html.find("<p class=\"warn\">PDG not rendered: no graph renderer</p><pre>digraph { a -&gt; b }</pre>"),
            std::string::npos) << html;
}

TEST(HangsDetails, CodeIsAKeyOnlyOnceTheGlueAddsItAndReadsBackTyped) {
  scalefuzz::detectors::pdg::TaskDetails task;
  task.lp_tasks = "1-2";
  nlohmann::json j = task;
  EXPECT_FALSE(j.contains("code"));
  for (const char* key : {"variant", "lp_tasks", "aborted_tasks", "node", "site", "tasks_in_call", "eliminated_tasks",
                          "graph", "notes"})
    EXPECT_TRUE(j.contains(key)) << key;
  scalefuzz::analysis::CodeLocation code;
  code.location = "f (/src/a.c:3)";
  code.line = 3;
  j["code"] = code;
  EXPECT_FALSE(j["code"].contains("source")) << "no source key without source lines, as RunView::code_location";
  const auto back = j.get<scalefuzz::detectors::pdg::TaskDetails>();
  EXPECT_EQ(back.lp_tasks, "1-2");
  EXPECT_EQ(back.code.get<scalefuzz::analysis::CodeLocation>().location, "f (/src/a.c:3)");
  scalefuzz::detectors::mpipd::SituationDetails situation;
  situation.explanation = "why";
  const nlohmann::json s = situation;
  EXPECT_FALSE(s.contains("code"));
  EXPECT_EQ(s.get<scalefuzz::detectors::mpipd::SituationDetails>().explanation, "why");
}

}  // namespace
