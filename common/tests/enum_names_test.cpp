#include "scalefuzz/common/enum_names.hpp"

#include <gtest/gtest.h>

namespace scalefuzz {
namespace {

enum class Colour { Red, Green, Blue };
constexpr EnumName<Colour> kColourNames[] = {{Colour::Red, "red"}, {Colour::Green, "green"}};

TEST(EnumNames, NamesEachListedValue) {
  EXPECT_STREQ(name_of(kColourNames, Colour::Red), "red");
  EXPECT_STREQ(name_of(kColourNames, Colour::Green), "green");
  static_assert(std::string_view(name_of(kColourNames, Colour::Green)) == "green");
}

TEST(EnumNames, UnlistedValueIsQuestionMark) { EXPECT_STREQ(name_of(kColourNames, Colour::Blue), "?"); }

TEST(EnumNames, ParsesOnlyTheExactNames) {
  EXPECT_EQ(value_named(kColourNames, "green"), Colour::Green);
  EXPECT_EQ(value_named(kColourNames, "Green"), std::nullopt);
  EXPECT_EQ(value_named(kColourNames, ""), std::nullopt);
  EXPECT_EQ(value_named(kColourNames, "?"), std::nullopt);
}

}  // namespace
}  // namespace scalefuzz
