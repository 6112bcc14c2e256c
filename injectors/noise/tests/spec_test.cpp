// The noise spec is the one source of truth: README.md's knob table is
// rendered from it (and must match), every (mode, knob) pair is unique, and
// each knob name has one environment variable.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "scalefuzz/noise/spec.hpp"
#include "scalefuzz/testing/files.hpp"

namespace {

using namespace scalefuzz::noise;

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

const char* type_name(KnobType t) {
  switch (t) {
    case KnobType::Probability: return "probability (0, 1]";
    case KnobType::PositiveNumber: return "number > 0";
    case KnobType::PositiveInt: return "integer ≥ 1";
    case KnobType::Duration: return "duration (10us, 2ms)";
    case KnobType::Bandwidth: return "bandwidth (3.14GB/s)";
    case KnobType::Switch: return "true / false";
  }
  return "?";
}

// The table as README.md shows it.
std::string render_table() {
  std::ostringstream out;
  out << "| mode | knob | type | default | stored as | variable | meaning |\n|---|---|---|---|---|---|---|\n";
  for (const auto& k : kKnobs) {
    std::string modes;
    for (Mode m : kModes)
      if (takes(k, m)) modes += std::string(modes.empty() ? "" : ", ") + "`" + std::string(to_string(m)) + "`";
    out << "| " << modes << " | `" << k.name << "` | " << type_name(k.type) << " | " << number(k.default_value)
        << " | " << (k.unit.empty() ? "number" : std::string(k.unit)) << " | `" << k.env << "` | " << k.doc << " |\n";
  }
  return out.str();
}

TEST(NoiseSpec, ReadmeTableIsRenderedFromTheSpec) {
  EXPECT_EQ(scalefuzz::testing::marked_section(SCALEFUZZ_NOISE_README,
                                               "<!-- noise-knobs: rendered from spec.hpp, checked by spec_test.cpp -->\n",
                                               "<!-- noise-knobs end -->"),
            render_table())
      << "replace the table in injectors/noise/README.md with:\n" << render_table();
}

TEST(NoiseSpec, KnobsAreUniquePerModeAndOneVariablePerName) {
  std::set<std::pair<Mode, std::string_view>> seen;
  std::map<std::string_view, std::string_view> env;
  for (const auto& k : kKnobs) {
    for (Mode m : kModes)
      if (takes(k, m)) EXPECT_TRUE(seen.insert({m, k.name}).second) << k.name << " twice for " << to_string(m);
    auto [it, fresh] = env.emplace(k.name, k.env);
    EXPECT_EQ(it->second, k.env) << k.name;
    if (k.id != KnobId::Overhead && k.id != KnobId::ZeroBuffer && k.id != KnobId::GuardReceives &&
        k.id != KnobId::GuardWindows)
      EXPECT_GT(k.default_value, 0) << k.name;  // overhead 0: none; switches: off
    EXPECT_FALSE(k.doc.empty()) << k.name;
  }
  EXPECT_EQ(find_knob(Mode::None, "scale"), nullptr);
  EXPECT_EQ(find_knob(Mode::Application, "scale")->default_value, 1.2);
  EXPECT_EQ(find_knob(Mode::Local, "delay")->default_value, 10000);
  for (Mode m : kModes) EXPECT_EQ(mode_from_string(to_string(m)), m);
  EXPECT_FALSE(mode_from_string("sytem"));
}

}  // namespace
