// The core's triage (rewrite/core/triage.h) on a backend of its own: the shared reasons in
// their order, the backend's hooks between them, and reads of another language never opened.
#include "rewrite/core/triage.h"
#include "unit/rewrite_fake_backend.h"

#include <gtest/gtest.h>

namespace gridlock::rewrite {
namespace {

using facts::Left;

// A Python backend that leaves reads named "first" before the shared suppression and held
// checks, and reads named "last" after them.
class Hooks : public test::FakeBackend {
 public:
  Hooks() : FakeBackend(facts::Language::Python, [](PlanState&) {}) {}
  bool triageFirst(PlanState& s, size_t i) const override {
    if (s.read(i).name != "first") return false;
    s.leave(i, Left::NoSpelling, "first hook");
    return true;
  }
  bool triageLast(PlanState& s, size_t i) const override {
    if (s.read(i).name != "last") return false;
    s.leave(i, Left::NoSpelling, "last hook");
    return true;
  }
};

facts::Read read(const std::string& name, const std::string& file = "a.py") {
  facts::Read r;
  r.language = facts::Language::Python;
  r.name = name;
  r.file = file;
  r.kind = facts::ReadKind::Accessor;
  return r;
}

std::string verdictOf(const PlanState& s, size_t i) {
  const facts::Verdict* v = s.decided(i);
  if (!v) return "open";
  return std::string(facts::spell(*v)) + ": " + v->detail;
}

TEST(RewriteTriage, SharedReasonsInOrderWithTheBackendsBetween) {
  index::Inventory inv;
  facts::Read cpp = read("plain", "a.cpp");
  cpp.language = facts::Language::Cpp;
  cpp.edge = true;
  facts::Read write = read("first");
  write.kind = facts::ReadKind::GlobalWrite;
  write.edge = true;
  facts::Read edge = read("first");
  edge.edge = true;
  facts::Read first = read("first", "held.py");
  first.suppressed = "allowed";
  facts::Read suppressed = read("last", "held.py");
  suppressed.suppressed = "allowed";
  facts::Read held = read("last", "held.py");
  inv.reads = {cpp, write, edge, first, suppressed, held, read("last"), read("plain")};
  rules::RuleSet rules;
  HeldFiles files = {{"held.py", "a syntax error"}};
  PlanState s(inv, rules, files, facts::Language::Python);
  triage(Hooks(), s);
  EXPECT_EQ(verdictOf(s, 0), "open");  // C++: not this backend's, never opened
  EXPECT_FALSE(s.open(0));
  EXPECT_EQ(verdictOf(s, 1), ": ");  // a write: no reason
  EXPECT_EQ(verdictOf(s, 2), "none: edge file: reads are allowed here");
  EXPECT_EQ(verdictOf(s, 3), "no_spelling: first hook");
  EXPECT_EQ(verdictOf(s, 4), "none: suppressed: allowed");
  EXPECT_EQ(verdictOf(s, 5), "compile_error: held held.py: a syntax error");
  EXPECT_EQ(verdictOf(s, 6), "no_spelling: last hook");
  EXPECT_EQ(verdictOf(s, 7), "open");
  EXPECT_TRUE(s.open(7));
}

}  // namespace
}  // namespace gridlock::rewrite
