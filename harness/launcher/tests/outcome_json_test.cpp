#include "outcome_json.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "scalefuzz/testing/files.hpp"

#include "scalefuzz/harness/launcher.hpp"

namespace scalefuzz::harness {
namespace {

class OutcomeJsonTest : public ::testing::Test {
 protected:
  scalefuzz::testing::TempDir tmp_{"sf-outcome"};
  const std::filesystem::path& dir_ = tmp_.path();
};

TEST_F(OutcomeJsonTest, RoundTripKeepsEveryField) {
  Outcome o;
  o.kind = OutcomeKind::Hang;
  o.exit_code = -1;
  o.signal = 0;
  o.detail = "timeout after 5s; stacks of 2 of 2 ranks captured";
  o.wall_seconds = 5.25;
  o.stacks = {{0, 1234, "#0 PMPI_Ssend\n\"quoted\"\n"}, {1, 1235, "#0 PMPI_Ssend\n"}};
  write_outcome(dir_, o);
  auto back = read_outcome(dir_);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->kind, o.kind);
  EXPECT_EQ(back->exit_code, o.exit_code);
  EXPECT_EQ(back->detail, o.detail);
  EXPECT_DOUBLE_EQ(back->wall_seconds, o.wall_seconds);
  ASSERT_EQ(back->stacks.size(), 2u);
  EXPECT_EQ(back->stacks[0].text, o.stacks[0].text);
  EXPECT_EQ(back->stacks[1].pid, 1235);
  // No temporary file is left behind.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1);
}

TEST_F(OutcomeJsonTest, MissingFileIsNullopt) { EXPECT_FALSE(read_outcome(dir_)); }

TEST_F(OutcomeJsonTest, CorruptFileThrowsNamingTheFile) {
  std::ofstream(dir_ / "outcome.json") << "{\"format\": \"scalefuzz-outcome\", \"version\": 1, \"kind\": ";
  try {
    read_outcome(dir_);
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("outcome.json"), std::string::npos) << e.what();
  }
}

TEST_F(OutcomeJsonTest, UnknownKindOrVersionIsRejected) {
  std::ofstream(dir_ / "outcome.json")
      << R"({"format":"scalefuzz-outcome","version":1,"kind":"exploded","exit_code":0,"signal":0,"detail":"","wall_seconds":0,"stacks":[]})";
  EXPECT_THROW(read_outcome(dir_), std::runtime_error);
  std::ofstream(dir_ / "outcome.json", std::ios::trunc)
      << R"({"format":"scalefuzz-outcome","version":99,"kind":"ok","exit_code":0,"signal":0,"detail":"","wall_seconds":0,"stacks":[]})";
  EXPECT_THROW(read_outcome(dir_), std::runtime_error);
}

TEST_F(OutcomeJsonTest, ExtraFieldsAreKeptButDoNotOverrideOutcome) {
  Outcome o;
  o.kind = OutcomeKind::Crashed;
  o.signal = 11;
  write_outcome_file(dir_, o, {{"run_id", "r1"}, {"kind", "ok"}});
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir_ / "outcome.json"));
  EXPECT_EQ(j["run_id"], "r1");
  EXPECT_EQ(j["kind"], "crashed");
  EXPECT_EQ(read_outcome(dir_)->signal, 11);
}

}  // namespace
}  // namespace scalefuzz::harness
