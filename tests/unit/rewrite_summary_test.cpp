// The summary line (rewrite/core/summary.h) is the same whichever backend's strategies are
// registered: the C++ ones, a Python-like list in its own order, or none.
#include "rewrite/core/summary.h"
#include "rewrite/cpp/rewriter.h"

#include <gtest/gtest.h>

namespace gridlock::rewrite {
namespace {

using Kind = facts::Strategy;

// A registered strategy that counts `kind` (or nothing) and describes it the default way.
class Counting : public Strategy {
 public:
  explicit Counting(std::optional<Kind> kind) : kind_(kind) {}
  facts::Language language() const override { return facts::Language::Python; }
  std::string_view id() const override { return "counting"; }
  std::optional<Kind> counts() const override { return kind_; }
  void run(PlanState&) override {}

 private:
  std::optional<Kind> kind_;
};

facts::Read read(facts::ReadKind kind) {
  facts::Read r;
  r.kind = kind;
  return r;
}

TEST(RewriteSummary, SameLineWhicheverBackendDescribes) {
  index::Inventory inv;
  inv.reads = {read(facts::ReadKind::Accessor), read(facts::ReadKind::Accessor),
               read(facts::ReadKind::Accessor), read(facts::ReadKind::GlobalWrite),
               read(facts::ReadKind::Accessor)};
  Plan plan;
  plan.verdicts = {{Kind::Substitute, facts::Left::Unset, ""},
                   {std::nullopt, facts::Left::NoSource, "x"},
                   {std::nullopt, facts::Left::Macro, "y"},
                   {std::nullopt, facts::Left::Unset, ""},
                   {std::nullopt, facts::Left::Macro, "z"}};
  plan.tallies = {{Kind::Substitute, {3, 3, 0}}, {Kind::Require, {2, 2, 0}},
                  {Kind::Thread, {4, 2, 1}},     {Kind::Store, {1, 1, 0}},
                  {Kind::Supply, {1, 2, 0}},     {Kind::Collapse, {2, 1, 0}}};
  // Each kind in the core's order; the write is not a read left; reasons by their spelling.
  const std::string expected =
      "3 substituted, 2 required, 4 threaded (through 2 function(s), the edge declared once in "
      "1 of its callers), 1 stored (in 1 class(es)), 2 call site(s) given the group they hold, "
      "2 collapsed (into 1 lookup(s)), 3 left (macro 2, no_source 1)";

  std::vector<const Strategy*> cpp;
  cpp::CppRewriter backend;
  for (const auto& s : backend.strategies()) cpp.push_back(s.get());
  EXPECT_EQ(summaryLine(plan, inv, cpp), expected);

  // The Python planner's order: laundered calls (supply), require, substitute, store, thread,
  // thread calls, collapse, edge calls, local aliases.
  std::vector<Counting> py = {
      Counting(Kind::Supply),   Counting(Kind::Require), Counting(Kind::Substitute),
      Counting(Kind::Store),    Counting(Kind::Thread),  Counting(std::nullopt),
      Counting(Kind::Collapse), Counting(std::nullopt),  Counting(std::nullopt)};
  std::vector<const Strategy*> python;
  for (const auto& s : py) python.push_back(&s);
  EXPECT_EQ(summaryLine(plan, inv, python), expected);

  EXPECT_EQ(summaryLine(plan, inv, std::vector<const Strategy*>{}), expected);
}

TEST(RewriteSummary, QuietKindsSayNothingWhenTheyDidNothing) {
  index::Inventory inv;
  Plan plan;
  EXPECT_EQ(summaryLine(plan, inv, std::vector<const Strategy*>{}),
            "0 substituted, 0 required, 0 threaded (through 0 "
            "function(s)), 0 left");
  EXPECT_EQ(describeTally(Kind::Store, plan), "");
  EXPECT_EQ(describeTally(Kind::Supply, plan), "");
  EXPECT_EQ(describeTally(Kind::Collapse, plan), "");
}

}  // namespace
}  // namespace gridlock::rewrite
