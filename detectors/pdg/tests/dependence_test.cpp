// Table 1 and Table 2.
#include <gtest/gtest.h>

#include "scalefuzz/detectors/pdg/dependence.hpp"

namespace scalefuzz::detectors::pdg {
namespace {

using enum PathClass;

TEST(Table1, EveryRow) {
  EXPECT_EQ(table1(Zero, Zero), Dependence::None);
  EXPECT_EQ(table1(Zero, Partial), Dependence::Forward);
  EXPECT_EQ(table1(Zero, One), Dependence::Forward);  // see dependence.hpp on this row
  EXPECT_EQ(table1(Partial, Zero), Dependence::Backward);
  EXPECT_EQ(table1(Partial, Partial), Dependence::Undefined);
  EXPECT_EQ(table1(Partial, One), Dependence::Forward);
  EXPECT_EQ(table1(One, Zero), Dependence::Backward);
  EXPECT_EQ(table1(One, Partial), Dependence::Backward);
  EXPECT_EQ(table1(One, One), Dependence::Undefined);
}

TEST(Table1, SwappingTheTasksReversesTheDependence) {
  for (PathClass f : {Zero, Partial, One}) {
    for (PathClass b : {Zero, Partial, One}) {
      EXPECT_EQ(table1(f, b), reversed(table1(b, f))) << to_string(f) << "," << to_string(b);
    }
  }
}

TEST(Table2, UnionOfTwoViews) {
  EXPECT_EQ(dependence_union(Dependence::Forward, Dependence::None), Dependence::Forward);        // 1
  EXPECT_EQ(dependence_union(Dependence::Forward, Dependence::Forward), Dependence::Forward);     // 2
  EXPECT_EQ(dependence_union(Dependence::Backward, Dependence::Backward), Dependence::Backward);  // 3
  EXPECT_EQ(dependence_union(Dependence::Forward, Dependence::Backward), Dependence::Undefined);  // 4
  EXPECT_EQ(dependence_union(Dependence::None, Dependence::None), Dependence::None);              // 5
  EXPECT_EQ(dependence_union(Dependence::Undefined, Dependence::None), Dependence::Undefined);
}

}  // namespace
}  // namespace scalefuzz::detectors::pdg
