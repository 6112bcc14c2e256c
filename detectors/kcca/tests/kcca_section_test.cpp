// KCCA's section of report.html (report/kcca_section.cpp) and its typed details.
#include "kcca_section.hpp"
#include "scalefuzz/detectors/kcca/details.hpp"

#include <gtest/gtest.h>

// GCC before 14 warns of the members a designated initializer leaves to their defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace {

using scalefuzz::detectors::Finding;
namespace kc = scalefuzz::detectors::kcca;

Finding model_finding() {
  kc::ScaleModelDetails d;
  d.training_ranks = 40;
  d.training_scales = {4, 8};
  d.control_features = {"rank", "nprocs"};
  d.solver = "exact";
  d.components = 2;
  d.gamma = 0.001;
  d.correlation_threshold = 0.75;
  d.model_file = "/out/kcca-model.json";
  d.cross_validation = kc::CrossValidationDetails{5, "run", 40, 1, 0.025};
  return {.detector = "kcca", .kind = "scale-model", .severity = scalefuzz::detectors::Severity::Info,
          .title = "KCCA scale model", .details = d};
}

Finding anomaly_finding() {
  kc::ScaleAnomalyDetails d;
  d.nprocs = 16;
  d.correlation_threshold = 0.75;
  d.scores = {{0, 0.9, false, 0}, {3, 0.2, true, 0}};
  d.training_correlations = {{0, 0.95}, {7, 0.9}};
  kc::DivergenceDetails div;
  div.where = "library";
  div.reason = "the path changed";
  div.test_frame = kc::FrameDetails{"0x1", "libmpi.so", "0x10", "MPIR_Allgather", "allgather.c", 42};
  d.divergences = {div};
  return {.detector = "kcca", .kind = "scale-anomaly", .run_id = "np16-r0", .ranks = {3}, .details = d,
          .artifacts = {{"correlation-scale-16", "image/svg+xml", "<?xml version=\"1.0\"?><svg id=\"plot16\"></svg>"}}};
}

TEST(HtmlKcca, ModelSummaryFlaggedRunsAndOneChartPerScale) {
  const std::vector<Finding> findings = {model_finding(), anomaly_finding()};
  const std::vector<scalefuzz::analysis::RunInfo> runs;
  const std::string html = kc::kcca_section({findings, runs});
  EXPECT_NE(html.find("<section id=\"scale-models\"><h2>Scale models (Vrisha): 1 test run off the trend</h2>"),
            std::string::npos) << html;
  EXPECT_NE(html.find("<dt>training scales</dt><dd>[4,8]</dd>"), std::string::npos) << html;
  EXPECT_NE(html.find("<dt>components / γ</dt><dd>2 / 0.001</dd>"), std::string::npos) << html;
  EXPECT_NE(html.find("id=\"kcca-cv-fpr\">2.50 % (1 of 40 ranks, 5 folds by run)"), std::string::npos) << html;
  EXPECT_NE(html.find("<dt>model saved to</dt><dd>/out/kcca-model.json</dd>"), std::string::npos) << html;
  EXPECT_EQ(html.find("model loaded from"), std::string::npos) << "only the key the model has";
  EXPECT_NE(html.find("<a href=\"#finding-2\"><code>np16-r0</code></a>"), std::string::npos) << html;
  EXPECT_NE(html.find("<code>MPIR_Allgather (allgather.c:42)</code> <span class=\"where\">library</span>"),
            std::string::npos) << html;
  EXPECT_NE(html.find("<td class=\"num\">1 of 2</td><td class=\"num\">0.200</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("data-for=\"chart-kcca-16\""), std::string::npos) << "Figure 5 by Chart.js";
  EXPECT_EQ(html.find("plot16"), std::string::npos) << "the chart replaces the SVG of its scale";
}

TEST(HtmlKcca, TheSectionDrawsTheCorrelationPlots) {
  const Finding f = anomaly_finding();
  ASSERT_NE(kc::kReportSection.drawn_here, nullptr);
  EXPECT_EQ(kc::kReportSection.drawn_here(f, f.artifacts.front()), "correlation plot: Scale models");
  EXPECT_EQ(kc::kReportSection.drawn_here(f, {"model", "application/json", "{}"}), "");
}

TEST(KccaDetails, OptionalKeysArePresentOnlyWhenKnown) {
  const nlohmann::json model = model_finding().details;
  EXPECT_TRUE(model.contains("model_file"));
  EXPECT_FALSE(model.contains("model_loaded_from"));
  EXPECT_EQ(model["cross_validation"]["fold_unit"], "run");
  const nlohmann::json anomaly = anomaly_finding().details;
  EXPECT_FALSE(anomaly.contains("localization"));
  EXPECT_TRUE(anomaly["divergences"][0].contains("test_frame"));
  EXPECT_FALSE(anomaly["divergences"][0].contains("train_frame"));
  EXPECT_EQ(anomaly["training_correlations"][1], (nlohmann::json{7, 0.9})) << "[rank, correlation]";
  const auto back = anomaly.get<kc::ScaleAnomalyDetails>();
  EXPECT_EQ(back.divergences.at(0).test_frame->function, "MPIR_Allgather");
  EXPECT_FALSE(back.divergences.at(0).train_frame.has_value());
  EXPECT_EQ(nlohmann::json(back), anomaly) << "written once, read back the same";
}

}  // namespace
