#include "scalefuzz/harness/run_filter.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace scalefuzz::harness {
namespace {

using ::testing::HasSubstr;
using testing::parse;

// 2 train + 2 test scales x 3 counts x 2 noise x 2 repetitions = 48 runs.
std::vector<RunSpec> sample_runs() {
  return expand_campaign(parse(R"(campaign: t
app: { command: ["./app", "{count}"] }
scales: { train: [2, 4], test: [8, 16] }
parameters: { count: [256, 512, 1024], label: [x] }
noise:
  - { mode: none }
  - { mode: system, scale: 1.2 }
repetitions: 2
)"));
}

std::vector<std::string> ids(const std::vector<RunSpec>& runs) {
  std::vector<std::string> out;
  for (const auto& run : runs) out.push_back(run.run_id);
  return out;
}

// Filter expressions and how many of the 48 sample runs each keeps.
struct Kept {
  const char* expr;
  std::size_t runs;
};

void expect_kept(std::initializer_list<Kept> table) {
  const auto runs = sample_runs();
  for (const auto& [expr, n] : table) EXPECT_EQ(filter_runs(runs, expr).size(), n) << expr;
}

// The noise label a report and findings.json show (NoiseSpec::label()) is
// the one of the run ids and is taken back by --filter (issues 34 and 35:
// "local-delay10000" and "random-delay20000-probability0.2" were not).
TEST(RunFilter, TheLabelsReportsShowAreAcceptedByTheFilter) {
  const auto runs = expand_campaign(parse(R"(campaign: t
app: { command: ["./app"] }
scales: [2]
noise:
  - { mode: local, delay: 10us }
  - { mode: random, delay: 20us, probability: 0.2 }
  - { mode: system, bandwidth: 3.14GB/s, latency: 250ns }
  - { mode: none, zero_buffer: true }
)"));
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0].noise.label(), "local-delay10us");
  EXPECT_EQ(runs[1].noise.label(), "random-delay20us-probability0.2");
  EXPECT_EQ(runs[2].noise.label(), "system-bandwidth3.14GBps-latency250ns");
  EXPECT_EQ(runs[3].noise.label(), "none-zero_buffer");
  for (const auto& run : runs) {
    EXPECT_NE(run.run_id.find(run.noise.label()), std::string::npos) << run.run_id;
    const auto kept = filter_runs(runs, "noise=" + run.noise.label());
    ASSERT_EQ(kept.size(), 1u) << run.noise.label();
    EXPECT_EQ(kept[0].run_id, run.run_id);
  }
}

TEST(RunFilter, EmptyExpressionKeepsEverything) {
  auto runs = sample_runs();
  ASSERT_EQ(runs.size(), 48u);
  EXPECT_EQ(ids(filter_runs(runs, "")), ids(runs));
  expect_kept({{"   ", 48}});
}

TEST(RunFilter, ScaleTerms) {
  expect_kept({{"np=8", 12}, {"nprocs=8", 12}, {"np>=8", 24}, {"np>4", 24}, {"np<4", 12}, {"np<=4", 24},
               {"np!=2", 36}, {"np=2|16", 24}});
  for (const auto& run : filter_runs(sample_runs(), "np>=16")) EXPECT_EQ(run.nprocs, 16);
}

TEST(RunFilter, RoleNoiseRepAndParameters) {
  expect_kept({{"role=test", 24}, {"role=train,np=4", 12}, {"role=train,np=8", 0}});
  expect_kept({{"noise=system", 24}, {"noise=system-scale1.2", 24}, {"noise=none|system", 48}, {"noise!=none", 24}});
  expect_kept({{"rep=0", 24}, {"count=512", 16}, {"count=512.0", 16} /* numeric equality */, {"count>=512", 32}});
  expect_kept({{"label=x", 48}, {"label>1", 0} /* non-numeric values never satisfy an ordering */,
               {" np = 8 , count = 512 , noise = system , rep = 1 ", 1}});
}

TEST(RunFilter, IdSubstrings) {
  expect_kept({{"id~count1024", 16}, {"id~r1", 24}, {"id!~system", 24}, {"id~np16|np2-", 24}});
  auto one = filter_runs(sample_runs(), "id=np16-count1024-labelx-system-scale1.2-r1");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].repetition, 1);
}

TEST(RunFilter, KeepsInputOrder) {
  auto selected = filter_runs(sample_runs(), "count=256,rep=0");
  ASSERT_EQ(selected.size(), 8u);
  EXPECT_EQ(selected.front().run_id, "np2-count256-labelx-none-r0");
  EXPECT_EQ(selected.back().run_id, "np16-count256-labelx-system-scale1.2-r0");
}

std::string filter_error(const std::string& expr) {
  return scalefuzz::testing::error_of<FilterError>([&] { filter_runs(sample_runs(), expr); });
}

TEST(RunFilter, BadExpressionsAreClearErrors) {
  EXPECT_THAT(filter_error("np"), HasSubstr("bad filter term 'np' in \"np\": expected an operator"));
  EXPECT_THAT(filter_error("=8"), HasSubstr("expected KEY OP VALUE"));
  EXPECT_THAT(filter_error("np="), HasSubstr("missing value"));
  EXPECT_THAT(filter_error("np>=abc"), HasSubstr("'abc' is not a number"));
  EXPECT_THAT(filter_error("np=eight"), HasSubstr("np takes a number"));
  EXPECT_THAT(filter_error("np>=4|8"), HasSubstr("'|' only works with"));
  EXPECT_THAT(filter_error("np=8||16"), HasSubstr("empty alternative"));
  EXPECT_THAT(filter_error("np=8,,role=test"), HasSubstr("empty term"));
  EXPECT_THAT(filter_error("role=prod"), HasSubstr("role is train or test"));
  EXPECT_THAT(filter_error("role<2"), HasSubstr("role cannot be compared"));
  EXPECT_THAT(filter_error("noise=sytem"), HasSubstr("unknown noise mode 'sytem'"));
  EXPECT_THAT(filter_error("cont=512"),
              HasSubstr("unknown filter key 'cont' in term 'cont=512' (did you mean 'count'?)"));
  EXPECT_THAT(filter_error("colour=red"), HasSubstr("keys: np, nprocs, role, noise, rep, seed, id, count, label"));
}

TEST(RunFilter, ParseWithoutRunsChecksSyntaxOnly) {
  RunFilter filter = parse_filter("anything=1");
  ASSERT_EQ(filter.terms().size(), 1u);
  EXPECT_EQ(filter.terms()[0].key, "anything");
  EXPECT_THROW(filter.check_keys(sample_runs()), FilterError);
  EXPECT_THROW(filter.check_keys({}), FilterError);  // no runs: only built-in keys are known
  EXPECT_NO_THROW(parse_filter("np>=2,role=test").check_keys({}));
}

}  // namespace
}  // namespace scalefuzz::harness
