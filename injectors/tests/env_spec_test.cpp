// The injector's environment table is the one source of truth: README.md's
// environment table is rendered from it (and must match), every variable has
// one row, and no injector source reads a SCALEFUZZ_ variable by a literal
// name (each goes through the table or the noise spec).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "scalefuzz/injector/env.hpp"
#include "scalefuzz/testing/files.hpp"

namespace {

using namespace scalefuzz::injector;

// The table as README.md shows it.
std::string render_table() {
  std::ostringstream out;
  out << "| variable | set by | meaning |\n|---|---|---|\n";
  for (const auto& e : kEnv)
    out << "| `" << e.name << "` | " << (e.set_by == SetBy::Harness ? "harness" : "direct runs") << " | " << e.doc
        << " |\n";
  std::string knobs;
  std::set<std::string_view> seen;
  for (const auto& k : scalefuzz::noise::kKnobs)
    if (seen.insert(k.env).second) knobs += std::string(knobs.empty() ? "" : ", ") + "`" + std::string(k.env) + "`";
  out << "| `SCALEFUZZ_NOISE_<KNOB>` | harness | the noise knobs of `noise/README.md` (`scalefuzz/noise/spec.hpp`): "
      << knobs << " |\n";
  return out.str();
}

TEST(InjectorEnv, ReadmeTableIsRenderedFromTheTable) {
  EXPECT_EQ(scalefuzz::testing::marked_section(
                SCALEFUZZ_INJECTOR_README,
                "<!-- injector-env: rendered from env/scalefuzz/injector/env.def, checked by tests/env_spec_test.cpp -->\n",
                "<!-- injector-env end -->"),
            render_table())
      << "replace the table in injectors/README.md with:\n" << render_table();
}

TEST(InjectorEnv, OneRowPerVariableAndNoNoiseKnobTwice) {
  std::set<std::string_view> names;
  std::set<Env> ids;
  for (const auto& e : kEnv) {
    EXPECT_TRUE(names.insert(e.name).second) << e.name << " twice";
    EXPECT_TRUE(ids.insert(e.id).second) << e.name << ": its Env has two rows";
    EXPECT_EQ(e.name.rfind("SCALEFUZZ_", 0), 0u) << e.name;
    EXPECT_EQ(e.name.data()[e.name.size()], '\0') << e.name << " must be a NUL-terminated literal (getenv)";
    EXPECT_FALSE(e.doc.empty()) << e.name;
    EXPECT_EQ(&env_spec(e.id), &e) << e.name;
    for (const auto& k : scalefuzz::noise::kKnobs) EXPECT_NE(e.name, k.env) << "a noise knob lives in the noise spec";
  }
  EXPECT_EQ(ids.size(), std::size(kEnv));
  EXPECT_STREQ(env_name(Env::RunDir), "SCALEFUZZ_RUN_DIR");
  EXPECT_EQ(std::string_view(env_name(Env::NoiseMode)), scalefuzz::noise::kModeEnv);
}

TEST(InjectorEnv, OnUnlessZeroSwitchesAreOffOnlyForZero) {
  const char* name = env_name(Env::TscClock);
  unsetenv(name);
  EXPECT_TRUE(env_on_unless_zero(Env::TscClock));
  setenv(name, "0", 1);
  EXPECT_FALSE(env_on_unless_zero(Env::TscClock));
  setenv(name, "1", 1);
  EXPECT_TRUE(env_on_unless_zero(Env::TscClock));
  unsetenv(name);
}

// A literal `getenv("SCALEFUZZ_...")` in the injector would be a variable
// the table does not know (and the README would not show).
TEST(InjectorEnv, NoInjectorSourceReadsAVariableByItsLiteralName) {
  const std::filesystem::path root = SCALEFUZZ_INJECTOR_SOURCES;
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const auto ext = entry.path().extension();
    if (ext != ".cpp" && ext != ".hpp" && ext != ".c" && ext != ".h") continue;
    if (entry.path().string().find("/tests/") != std::string::npos) continue;
    ++files;
    const std::string text = scalefuzz::testing::read_file(entry.path());
    EXPECT_EQ(text.find("getenv(\"SCALEFUZZ_"), std::string::npos) << entry.path();
  }
  EXPECT_GT(files, 20) << "the injector sources were not found under " << root;
}

}  // namespace
