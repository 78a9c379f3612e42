// Which source stands for a group, and how it is written where a parameter of another shape
// expects it (rules/source_pick.h).
#include "rules/source_pick.h"

#include <gtest/gtest.h>

namespace gridlock::rules {
namespace {

using facts::Holder;
using facts::Shape;
using facts::Yields;
constexpr Yields kGroup = Yields::Group, kCollection = Yields::Collection;
constexpr Shape kValue{Holder::Value}, kSmart{Holder::Smart};

TEST(PickSource, CollectionFirstThenTypedGroupThenName) {
  std::vector<facts::SourceFact> s = {{"g", kGroup, "", "g", kSmart},
                                      {"this->tp_group_", kGroup, "", "tp_group_", kSmart},
                                      {"comm", kGroup, "world", "comm", kValue}};
  bool field = true;
  ASSERT_NE(pickSource(s, "tp", Yields::Group, &field), nullptr);
  EXPECT_EQ(pickSource(s, "tp", Yields::Size)->spelling, "this->tp_group_");
  EXPECT_FALSE(field);
  EXPECT_EQ(pickSource(s, "world", Yields::Group)->spelling, "comm");
  EXPECT_EQ(pickSource(s, "dp", Yields::Group), nullptr);
  EXPECT_EQ(pickSource(s, "", Yields::Collection), nullptr);
  s.push_back({"groups", kCollection, "", "groups", kValue});
  EXPECT_EQ(pickSource(s, "dp", Yields::Rank, &field)->spelling, "groups");
  EXPECT_TRUE(field);
  EXPECT_EQ(pickSource(s, "", Yields::Collection, &field)->spelling, "groups");
  EXPECT_FALSE(field);
}

TEST(PickSource, ACollectionServesOnlyTheGroupsItHolds) {
  std::vector<facts::SourceFact> s = {{"groups", kCollection, "", "groups", kValue, {"tp", "dp"}},
                                      {"comm", kGroup, "world", "comm", kValue, {}}};
  EXPECT_EQ(pickSource(s, "tp", Yields::Size)->spelling, "groups");
  EXPECT_EQ(pickSource(s, "world", Yields::Group)->spelling, "comm");  // not groups.world
  s.pop_back();
  EXPECT_EQ(pickSource(s, "world", Yields::Group), nullptr);
  EXPECT_EQ(pickSource(s, "", Yields::Collection)->spelling, "groups");
}

TEST(AdaptShape, EveryConversionAndTheImpossibleOnes) {
  EXPECT_EQ(adaptShape("g", Shape{Holder::Smart, false}, Shape{Holder::Smart, false}), "g");
  EXPECT_EQ(adaptShape("g", Shape{Holder::Value, false}, Shape{Holder::Pointer, false}), "&g");
  EXPECT_EQ(adaptShape("g", Shape{Holder::Smart, false}, Shape{Holder::Pointer, false}), "g.get()");
  EXPECT_EQ(adaptShape("g", Shape{Holder::Unique, false}, Shape{Holder::Pointer, false}),
            "g.get()");
  EXPECT_EQ(adaptShape("g", Shape{Holder::Pointer, false}, Shape{Holder::Value, false}), "*g");
  EXPECT_EQ(adaptShape("g", Shape{Holder::Smart, false}, Shape{Holder::Value, false}), "*g");
  EXPECT_EQ(adaptShape("g", Shape{Holder::Pointer, false}, Shape{Holder::Smart, false}), "");
  EXPECT_EQ(adaptShape("g", Shape{Holder::Value, false}, Shape{Holder::Smart, false}), "");
  EXPECT_EQ(adaptShape("g", Shape{Holder::Unique, false}, Shape{Holder::Unique, false}), "");
  EXPECT_EQ(adaptShape("g", Shape{Holder::Smart, false}, Shape{Holder::Smart, true}), "g");
  EXPECT_EQ(adaptShape("g", Shape{Holder::Value, false}, Shape{Holder::Pointer, true}), "&g");
  EXPECT_EQ(adaptShape("o", Shape{Holder::Value, true}, Shape{Holder::Pointer, false}), "&(*o)");
  EXPECT_EQ(adaptShape("o", Shape{Holder::Smart, true}, Shape{Holder::Smart, false}), "(*o)");
}

}  // namespace
}  // namespace gridlock::rules
