// Every file in data/bad/ must fail to load with the exact position and the
// key part of the message listed here; a file without an entry fails too.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "bad_files.hpp"
#include "test_support.hpp"

namespace scalefuzz::harness {
namespace {

using testing::data_dir;

using testing::BadFile;
using testing::kBadFiles;

class BadCampaignFile : public ::testing::TestWithParam<BadFile> {};

TEST_P(BadCampaignFile, FailsWithPositionAndMessage) {
  const BadFile& bad = GetParam();
  const auto path = data_dir() / "bad" / bad.file;
  const std::string prefix = path.string() + ":" + std::to_string(bad.line) + ":" +
                             std::to_string(bad.column) + ": ";
  try {
    load_campaign(path, LoadOptions{"/opt/sf-build", scalefuzz::analysis::detector_names()});
    FAIL() << bad.file << " loaded without error";
  } catch (const CampaignError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.substr(0, prefix.size()), prefix) << what;
    EXPECT_THAT(what.substr(std::min(prefix.size(), what.size())), ::testing::StartsWith(bad.message));
  }
}

INSTANTIATE_TEST_SUITE_P(DataBad, BadCampaignFile, ::testing::ValuesIn(kBadFiles),
                         [](const ::testing::TestParamInfo<BadFile>& info) {
                           std::string name = info.param.file;
                           name = name.substr(0, name.find('.'));
                           return name;
                         });

TEST(BadCampaignFiles, EveryFileHasAnExpectation) {
  std::set<std::string> listed;
  for (const auto& bad : kBadFiles) listed.insert(bad.file);
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir() / "bad"))
    on_disk.insert(entry.path().filename().string());
  EXPECT_EQ(listed, on_disk);
  EXPECT_GE(on_disk.size(), 12u);
}

}  // namespace
}  // namespace scalefuzz::harness
