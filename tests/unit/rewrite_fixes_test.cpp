// SARIF's suggested fixes from a plan (rewrite/core/fixes.h): a substituted read with the edit at
// its range, the file's note; nothing for another verdict, another strategy's edit at the range
// or an edit elsewhere.
#include "rewrite/core/fixes.h"

#include <gtest/gtest.h>

namespace gridlock::rewrite {
namespace {

facts::Read read(const std::string& file, unsigned offset) {
  facts::Read r;
  r.file = file;
  r.offset = offset;
  r.length = 5;
  return r;
}

TEST(RewriteFixes, EachSubstitutionWithItsEditAndItsFilesNote) {
  index::Inventory inv;
  inv.reads = {read("a.cpp", 10), read("a.cpp", 40), read("b.py", 3), read("b.py", 30),
               read("c.cpp", 7)};
  Plan plan;
  plan.verdicts = {{facts::Strategy::Substitute, facts::Left::Unset, ""},
                   {facts::Strategy::Thread, facts::Left::Unset, ""},
                   {facts::Strategy::Substitute, facts::Left::Unset, ""},
                   {facts::Strategy::Substitute, facts::Left::Unset, ""},
                   {facts::Strategy::Substitute, facts::Left::Unset, ""}};
  // Read 1 is threaded: a substitution's edit at its range is no fix of it; read 4's only edit
  // at its range is another strategy's.
  plan.edits = {{"a.cpp", 40, 5, "tp", facts::Strategy::Substitute, ""},
                {"c.cpp", 7, 5, "pg", facts::Strategy::Require, ""},
                {"a.cpp", 10, 5, "g->size()", facts::Strategy::Substitute, ""},
                {"b.py", 3, 5, "self.tp", facts::Strategy::Substitute, ""},
                {"b.py", 31, 5, "off by one", facts::Strategy::Substitute, ""}};
  plan.fixNotes = {{"a.cpp", "#include group.h"}};
  std::map<size_t, facts::SuggestedFix> fixes = suggestedFixes(inv, plan);
  ASSERT_EQ(fixes.size(), 2u);
  EXPECT_EQ(fixes[0].text, "g->size()");
  EXPECT_EQ(fixes[0].description, "use g->size() (and #include group.h)");
  EXPECT_EQ(fixes[2].text, "self.tp");
  EXPECT_EQ(fixes[2].description, "use self.tp");
}

}  // namespace
}  // namespace gridlock::rewrite
