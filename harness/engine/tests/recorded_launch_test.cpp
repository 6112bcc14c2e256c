// launch.json (replay.hpp: recorded_launch, write_launcher_file): how a run
// was started, read back by replay and explore from the run directory alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "scalefuzz/engine/replay.hpp"

namespace se = scalefuzz::engine;
namespace sh = scalefuzz::harness;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("scalefuzz_recorded_launch_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

}  // namespace

TEST(RecordedLaunch, AWrapperLauncherNamedOpenMpiAndAWrappedApplicationComeBackAsRecorded) {
  const fs::path dir = fresh_dir("roundtrip");
  write(dir / "app.sh", "#!/bin/sh\nexec /bin/true\n");  // no DT_NEEDED to read: only the key tells
  sh::RunSpec spec;
  spec.argv = {(dir / "app.sh").string()};
  sh::LaunchOptions options;
  options.mpiexec = {"/opt/site/bin/site-mpirun"};  // a name no launcher is detected from
  options.launcher = sh::find_mpi_launcher("openmpi");
  options.mpi = sh::MpiImplementation::OpenMpi;
  se::write_launcher_file(dir, spec, options);
  const se::RecordedLaunch got = se::recorded_launch(dir);
  EXPECT_EQ(got.mpiexec, options.mpiexec);
  ASSERT_NE(got.launcher, nullptr);
  EXPECT_EQ(got.launcher->name(), "openmpi");
  EXPECT_EQ(got.mpi, sh::MpiImplementation::OpenMpi);
  fs::remove_all(dir);
}

TEST(RecordedLaunch, AnOlderFileGivesTheLauncherOfItsWordsAndNoMpi) {
  const fs::path dir = fresh_dir("older");
  write(dir / "launch.json", R"({"mpiexec": ["mpirun.openmpi"]})");
  const se::RecordedLaunch got = se::recorded_launch(dir);
  ASSERT_NE(got.launcher, nullptr);
  EXPECT_EQ(got.launcher->name(), "openmpi");
  EXPECT_FALSE(got.mpi.has_value());
  fs::remove(dir / "launch.json");
  EXPECT_EQ(se::recorded_launch(dir).mpiexec, std::vector<std::string>{"mpiexec"});  // before launch.json
  fs::remove_all(dir);
}

TEST(RecordedLaunch, AnUnknownLauncherOrMpiIsRefusedNamingTheFile) {
  const fs::path dir = fresh_dir("unknown");
  write(dir / "launch.json", R"({"mpiexec": ["x"], "launcher": "hydr"})");
  EXPECT_THROW(
      {
        try {
          se::recorded_launch(dir);
        } catch (const se::ReplayRefused& e) {
          EXPECT_NE(std::string(e.what()).find("launch.json: unknown launcher 'hydr'"), std::string::npos) << e.what();
          throw;
        }
      },
      se::ReplayRefused);
  write(dir / "launch.json", R"({"mpiexec": ["x"], "mpi": "open-mpi"})");
  EXPECT_THROW(se::recorded_launch(dir), se::ReplayRefused);
  fs::remove_all(dir);
}
