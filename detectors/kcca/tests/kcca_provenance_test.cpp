// What a stored KCCA model records about its training, and when it no longer
// fits (analysis/kcca_detector.cpp): the reuse decision of kcca.model.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "kcca_detector.hpp"

namespace scalefuzz::detectors::kcca {
namespace {

TEST(BinaryBuildId, ReadsTheGnuBuildIdNoteOfAnElfFile) {
  // Debian's toolchain links with --build-id (a 20-byte SHA-1 note).
  const std::string id = binary_build_id("/proc/self/exe");
  EXPECT_TRUE(std::regex_match(id, std::regex("[0-9a-f]{40}"))) << id;
  EXPECT_EQ(id, binary_build_id("/proc/self/exe"));
}

TEST(BinaryBuildId, HashesFilesWithoutANoteAndIsEmptyForMissingOnes) {
  const auto file = std::filesystem::temp_directory_path() / "scalefuzz-build-id-test.txt";
  std::ofstream(file) << "not an ELF file";
  const std::string id = binary_build_id(file);
  EXPECT_TRUE(std::regex_match(id, std::regex("content-[0-9a-f]{16}"))) << id;
  std::ofstream(file) << "another text";
  EXPECT_NE(binary_build_id(file), id);
  std::filesystem::remove(file);
  EXPECT_EQ(binary_build_id(file), "");
}

analysis::RunInfo run(int nprocs, const std::string& role) {
  analysis::RunInfo r;
  r.nprocs = nprocs;
  r.scale_role = role;
  r.params = {{"count", "16"}, {"variant", "--fast"}};
  r.argv = {"/proc/self/exe", "--count", "16"};
  return r;
}

TEST(KccaProvenance, RecordsTrainScalesControlParametersSettingsAndBuildId) {
  const auto p = kcca_provenance({}, {run(2, "train"), run(4, "train"), run(8, "test")});
  EXPECT_EQ(p.at("train_scales"), nlohmann::json::array({2, 4}));
  EXPECT_EQ(p.at("control_parameters"), nlohmann::json::array({"count"}));
  EXPECT_EQ(p.at("options").at("components"), 2);
  EXPECT_EQ(p.at("build_id"), binary_build_id("/proc/self/exe"));
}

TEST(KccaProvenance, MismatchSaysWhatChanged) {
  const auto a = kcca_provenance({}, {run(2, "train"), run(4, "train")});
  EXPECT_EQ(provenance_mismatch(a, a), "");
  const auto b = kcca_provenance({}, {run(2, "train"), run(4, "train"), run(6, "train")});
  EXPECT_EQ(provenance_mismatch(a, b), "train_scales [2,4] -> [2,4,6]");
  Settings other;
  other.gamma = 0.5;
  EXPECT_NE(provenance_mismatch(a, kcca_provenance(other, {run(2, "train"), run(4, "train")})).find("options"),
            std::string::npos);
  EXPECT_EQ(provenance_mismatch(nlohmann::json::object(), a), "it records nothing about what it was trained on");
}

}  // namespace
}  // namespace scalefuzz::detectors::kcca
