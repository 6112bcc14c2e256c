// End-to-end: the NINJA scenarios through `scalefuzz run` with real mpiexec.
// A quiet + noise campaign on case 2 must yield a race finding that names
// both routines; the safe twins and the clean spine scenarios must give no
// race finding and no hang or wrong result under every noise mode.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace scalefuzz::e2e;  // TempDir, run_scalefuzz, read_file, ...

const char* kEveryNoiseMode =
    "noise:\n"
    "  - { mode: none }\n"
    "  - { mode: random, probability: 0.5, delay: 2ms }\n"
    "  - { mode: system }\n"
    "  - { mode: application }\n"
    "  - { mode: local, delay: 10us }\n";

json run_campaign(const TempDir& tmp, const std::string& text, int expected_exit) {
  const fs::path file = tmp.path() / "campaign.yaml", out = tmp.path() / "out";
  write_file(file, text);
  auto r = run_scalefuzz({"run", file.string(), "--out", out.string()}, std::chrono::seconds(170));
  EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
  EXPECT_TRUE(fs::exists(out / "report.html"));
  return json::parse(read_file(out / "findings.json"));
}

std::vector<json> race_findings(const json& doc) {
  std::vector<json> out;
  for (const auto& f : doc.at("findings"))
    if (f.at("detector") == "races" && f.at("kind") == "unintended-match") out.push_back(f);
  return out;
}

TEST(NinjaRacesE2E, Case2UnderNoiseYieldsARaceFindingNamingBothRoutines) {
  TempDir tmp;
  const json doc = run_campaign(tmp,
                                "campaign: case2-races\n"
                                "app:\n"
                                "  command: [\"{build}/scenarios/ninja_case2\", \"--iterations\", \"150\", "
                                "\"--seed\", \"{seed}\"]\n"
                                "  check: { stdout-must-match: \"^case2: OK ranks=\" }\n"
                                "scales: [4]\n"
                                "noise:\n"
                                "  - { mode: none }\n"
                                "  - { mode: random, probability: 0.5, delay: 2ms }\n"
                                "  - { mode: system }\n"
                                "  - { mode: application }\n"
                                "timeout: 50s\n"
                                "detectors: [races]\n",
                                1);
  const auto races = race_findings(doc);
  ASSERT_FALSE(races.empty()) << doc.dump(2);
  bool a_got_b = false;
  for (const auto& f : races) {
    const json& d = f.at("details");
    EXPECT_NE(d.at("noise"), "none");  // the quiet run is the baseline, never a finding
    EXPECT_EQ(d.at("tag"), 11);
    EXPECT_EQ(d.at("communicator_name"), "MPI_COMM_WORLD");
    EXPECT_EQ(f.at("ranks").size(), 2u);
    const std::string recv = d.at("receive_routine"), send = d.at("send_routine");
    EXPECT_NE(recv.find("case2_allreduce_any_source.c:"), std::string::npos) << recv;
    if (recv.find("routine_a") == 0 && send.find("routine_b") == 0) a_got_b = true;
  }
  EXPECT_TRUE(a_got_b) << doc.dump(2);
  // The quiet run matched as intended: no wrong result without noise.
  for (const auto& r : doc.at("runs"))
    if (r.at("noise") == "none") {
      EXPECT_EQ(r.at("outcome"), "ok") << r.dump();
    }
  const std::string html = read_file(tmp.path() / "out" / "report.html");
  EXPECT_NE(html.find("id=\"races\""), std::string::npos);
  EXPECT_NE(html.find("routine_b"), std::string::npos);
}

// Campaign `name` of the scenarios `programs` ("[a, b]"), each run as
// {build}/scenarios/{scenario} `args` on 4 ranks under every noise mode:
// no race finding, and each of the `runs` runs ends ok (stdout matches `ok_regex`).
void expect_race_free_under_every_noise(const std::string& name, const std::string& programs, const std::string& args,
                                        const std::string& ok_regex, std::size_t runs) {
  TempDir tmp;
  const json doc = run_campaign(tmp,
                                "campaign: " + name + "\napp:\n  command: [\"{build}/scenarios/{scenario}\", " + args +
                                    "]\n  check: { stdout-must-match: \"" + ok_regex + "\" }\nscales: [4]\n" +
                                    "parameters: { scenario: " + programs + " }\n" + kEveryNoiseMode +
                                    "timeout: 30s\ndetectors: [races]\n",
                                0);
  EXPECT_TRUE(race_findings(doc).empty()) << doc.dump(2);
  ASSERT_EQ(doc.at("runs").size(), runs);
  for (const auto& r : doc.at("runs")) EXPECT_EQ(r.at("outcome"), "ok") << r.dump();
}

TEST(NinjaRacesE2E, SafeTwinsHaveNoRaceUnderEveryNoiseMode) {
  expect_race_free_under_every_noise("ninja-safe-twins", "[ninja_case1, ninja_case2, ninja_case3]",
                                     R"("--safe", "--iterations", "60", "--seed", "{seed}")",
                                     "^case[123]: OK ranks=", 15);
}

TEST(NinjaRacesE2E, CleanSpineScenariosHaveNoRaceUnderEveryNoiseMode) {
  expect_race_free_under_every_noise("spine-under-noise", "[ring, stencil2d]", R"("--iterations", "50")",
                                     "^(ring|stencil2d): OK ranks=", 10);
}

TEST(NinjaRacesE2E, ShippedCampaignFilesLoadAndExpand) {
  TempDir tmp;
  for (const char* name : {"ninja_case1.yaml", "ninja_case2.yaml", "ninja_case3.yaml"}) {
    const fs::path file = scalefuzz::e2e::source_dir() / "configs" / "scenarios" / name;
    auto r = run_scalefuzz({"run", file.string(), "--dry-run", "--out", (tmp.path() / name).string()});
    EXPECT_EQ(r.exit_code, 0) << name << r.out << r.err;
    EXPECT_NE(r.out.find("--races"), std::string::npos) << name;
    EXPECT_NE(r.out.find("--safe"), std::string::npos) << name;
  }
}

}  // namespace
