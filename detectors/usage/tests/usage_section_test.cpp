// The usage detector's section of report.html (report/usage_section.cpp).
#include "usage_section.hpp"

#include <gtest/gtest.h>

// GCC before 14 warns of the members a designated initializer leaves to their defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace {

using scalefuzz::detectors::Finding;

Finding finding(const std::string& detector, const std::string& kind, scalefuzz::detectors::Severity severity) {
  return {.detector = detector, .kind = kind, .severity = severity, .run_id = "np3-r0", .title = "<" + kind + ">",
          .location = "main (/src/a.c:7)", .ranks = {0, 1}};
}

TEST(HtmlUsage, OneRowPerUsageFindingLinkedToItsCard) {
  using scalefuzz::detectors::Severity;
  const std::vector<Finding> findings = {finding("outcome", "crashed", Severity::Error),
                                         finding("usage", "request-leak", Severity::Warning),
                                         finding("usage", "note", Severity::Info),
                                         finding("rma", "rma-conflict", Severity::Error)};
  const std::vector<scalefuzz::analysis::RunInfo> runs;
  const std::string html = scalefuzz::detectors::usage::usage_section({findings, runs});
  EXPECT_NE(html.find("<section id=\"usage\"><h2>MPI usage: 1 error or warning</h2>"), std::string::npos) << html;
  EXPECT_NE(html.find("<a href=\"#finding-2\">request-leak</a>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td class=\"ranks\">0-1</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("&lt;request-leak&gt;"), std::string::npos) << "titles are escaped";
  EXPECT_EQ(html.find("rma-conflict"), std::string::npos) << "the table lists the usage detector's findings";
}

}  // namespace
