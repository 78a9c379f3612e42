// The core's planner (rewrite/core/planner.h) on backends of its own: a read left open or owned
// by no backend is an internal error, a merge takes only the owner's verdicts, and a backend
// owning no read (or not the language asked for) is not asked.
#include "rewrite/core/planner.h"
#include "unit/rewrite_fake_backend.h"

#include <gtest/gtest.h>

namespace gridlock::rewrite {
namespace {

using facts::Language;
using facts::Left;
using test::FakeBackend;

facts::Read read(Language language, const std::string& file, unsigned line) {
  facts::Read r;
  r.language = language;
  r.file = file;
  r.line = line;
  r.column = 7;
  r.kind = facts::ReadKind::Accessor;
  return r;
}

// Every open read substituted with one edit, its tally counted; a fix note for its file.
void substituteAll(PlanState& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (!s.open(i)) continue;
    s.apply(i, facts::Strategy::Substitute, "done " + std::to_string(i));
    s.edit({s.read(i).file, 0, 0, "e" + std::to_string(i), facts::Strategy::Substitute, "x"});
    ++s.tally(facts::Strategy::Substitute).reads;
    s.plan.fixNotes.emplace(s.read(i).file, "note of " + std::to_string(i));
  }
}

class Planner : public ::testing::Test {
 protected:
  index::Inventory inv;
  rules::RuleSet rules;
  std::string root = "/nowhere";
  HeldFiles held;
  std::map<std::string, std::string> overlay;
  PlanInputs in() { return {inv, rules, root, held, overlay}; }
};

TEST_F(Planner, AReadLeftOpenIsAnInternalError) {
  inv.reads = {read(Language::Python, "a.py", 3), read(Language::Python, "b.py", 4)};
  FakeBackend py(Language::Python, [](PlanState& s) { s.apply(0, facts::Strategy::Require, ""); });
  try {
    planWith(py, in());
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "internal: no rewrite strategy decided on the read at b.py:4:7");
  }
}

TEST_F(Planner, MergeTakesOnlyTheOwnersVerdictsInBackendOrder) {
  inv.reads = {read(Language::Cpp, "a.cpp", 1), read(Language::Python, "b.py", 2),
               read(Language::Cpp, "a.cpp", 3)};
  // The C++ backend also leaves the Python read, which it does not own: not its verdict.
  FakeBackend cpp(Language::Cpp, [](PlanState& s) {
    s.leave(1, Left::Thread, "not mine");
    substituteAll(s);
    s.plan.signatures["c:@F@f"] = "f";
  });
  FakeBackend py(Language::Python, substituteAll);
  Rewriters both;
  both.push_back(std::make_unique<FakeBackend>(std::move(cpp)));
  both.push_back(std::make_unique<FakeBackend>(std::move(py)));
  Plan p = planReads(inv, rules, root, both);
  ASSERT_EQ(p.verdicts.size(), 3u);
  EXPECT_EQ(p.verdicts[0].detail, "done 0");
  EXPECT_EQ(p.verdicts[1].detail, "done 1");
  EXPECT_EQ(p.verdicts[2].detail, "done 2");
  std::vector<std::string> edits;
  for (const auto& e : p.edits) edits.push_back(e.file + " " + e.text);
  EXPECT_EQ(edits, (std::vector<std::string>{"a.cpp e0", "a.cpp e2", "b.py e1"}));
  EXPECT_EQ(p.tally(facts::Strategy::Substitute).reads, 3u);
  EXPECT_EQ(p.signatures, (std::map<std::string, std::string>{{"c:@F@f", "f"}}));
  EXPECT_EQ(p.fixNotes,
            (std::map<std::string, std::string>{{"a.cpp", "note of 0"}, {"b.py", "note of 1"}}));
}

TEST_F(Planner, ABackendOwningNoReadIsNotAsked) {
  inv.reads = {read(Language::Python, "b.py", 2)};
  auto cpp = std::make_unique<FakeBackend>(Language::Cpp, substituteAll);
  auto py = std::make_unique<FakeBackend>(Language::Python, substituteAll);
  FakeBackend* cppSeen = cpp.get();
  FakeBackend* pySeen = py.get();
  Rewriters both;
  both.push_back(std::move(cpp));
  both.push_back(std::move(py));
  Plan p = planReads(inv, rules, root, both);
  EXPECT_EQ(cppSeen->starts, 0);
  EXPECT_EQ(pySeen->starts, 1);
  EXPECT_EQ(p.verdicts[0].detail, "done 0");
}

TEST_F(Planner, AReadNoBackendOwnsIsAnInternalError) {
  inv.reads = {read(Language::Python, "b.py", 2), read(Language::Cpp, "a.cpp", 5)};
  auto py = std::make_unique<FakeBackend>(Language::Python, substituteAll);
  FakeBackend* pySeen = py.get();
  Rewriters one;
  one.push_back(std::move(py));
  try {
    planReads(inv, rules, root, one);
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "internal: no rewrite backend owns the read at a.cpp:5:7");
  }
  EXPECT_EQ(pySeen->starts, 0);  // found before anything is planned
}

TEST_F(Planner, OnlyTheLanguageAskedForPlans) {
  inv.reads = {read(Language::Python, "b.py", 2), read(Language::Cpp, "a.cpp", 5)};
  auto cpp = std::make_unique<FakeBackend>(Language::Cpp, substituteAll);
  auto py = std::make_unique<FakeBackend>(Language::Python, substituteAll);
  FakeBackend* pySeen = py.get();
  Rewriters both;
  both.push_back(std::move(cpp));
  both.push_back(std::move(py));
  Plan p = planReads(inv, rules, root, both, Language::Cpp);
  EXPECT_EQ(pySeen->starts, 0);
  EXPECT_EQ(p.verdicts[0].detail, "");
  EXPECT_EQ(p.verdicts[1].detail, "done 1");
  EXPECT_EQ(p.edits.size(), 1u);
}

}  // namespace
}  // namespace gridlock::rewrite
