// Which source stands for a group, and how it is written where a parameter of another shape
// expects it (rules/source_pick.h).
#include "rules/source_pick.h"

#include <gtest/gtest.h>

namespace gridlock::rules {
namespace {

TEST(PickSource, CollectionFirstThenTypedGroupThenName) {
  std::vector<facts::SourceFact> s = {{"g", "group", "", "g", "smart"},
                                      {"this->tp_group_", "group", "", "tp_group_", "smart"},
                                      {"comm", "group", "world", "comm", "value"}};
  bool field = true;
  ASSERT_NE(pickSource(s, "tp", "group", &field), nullptr);
  EXPECT_EQ(pickSource(s, "tp", "size")->spelling, "this->tp_group_");
  EXPECT_FALSE(field);
  EXPECT_EQ(pickSource(s, "world", "group")->spelling, "comm");
  EXPECT_EQ(pickSource(s, "dp", "group"), nullptr);
  EXPECT_EQ(pickSource(s, "", "collection"), nullptr);
  s.push_back({"groups", "collection", "", "groups", "value"});
  EXPECT_EQ(pickSource(s, "dp", "rank", &field)->spelling, "groups");
  EXPECT_TRUE(field);
  EXPECT_EQ(pickSource(s, "", "collection", &field)->spelling, "groups");
  EXPECT_FALSE(field);
}

TEST(PickSource, ACollectionServesOnlyTheGroupsItHolds) {
  std::vector<facts::SourceFact> s = {{"groups", "collection", "", "groups", "value", {"tp", "dp"}},
                                      {"comm", "group", "world", "comm", "value", {}}};
  EXPECT_EQ(pickSource(s, "tp", "size")->spelling, "groups");
  EXPECT_EQ(pickSource(s, "world", "group")->spelling, "comm");  // not groups.world
  s.pop_back();
  EXPECT_EQ(pickSource(s, "world", "group"), nullptr);
  EXPECT_EQ(pickSource(s, "", "collection")->spelling, "groups");
}

TEST(AdaptShape, EveryConversionAndTheImpossibleOnes) {
  EXPECT_EQ(adaptShape("g", "smart", "smart"), "g");
  EXPECT_EQ(adaptShape("g", "value", "pointer"), "&g");
  EXPECT_EQ(adaptShape("g", "smart", "pointer"), "g.get()");
  EXPECT_EQ(adaptShape("g", "unique", "pointer"), "g.get()");
  EXPECT_EQ(adaptShape("g", "pointer", "value"), "*g");
  EXPECT_EQ(adaptShape("g", "smart", "value"), "*g");
  EXPECT_EQ(adaptShape("g", "pointer", "smart"), "");
  EXPECT_EQ(adaptShape("g", "value", "smart"), "");
  EXPECT_EQ(adaptShape("g", "unique", "unique"), "");
  EXPECT_EQ(adaptShape("g", "smart", "optional:smart"), "g");
  EXPECT_EQ(adaptShape("g", "value", "optional:pointer"), "&g");
  EXPECT_EQ(adaptShape("o", "optional:value", "pointer"), "&(*o)");
  EXPECT_EQ(adaptShape("o", "optional:smart", "smart"), "(*o)");
}

}  // namespace
}  // namespace gridlock::rules
