// callers and laundering on hand-made facts: forwarding chains, cycles, overrides, scope.
#include "analysis/callers.h"
#include "analysis/laundering.h"
#include "rules/rule_pack.h"

#include <gtest/gtest.h>

namespace gridlock::analysis {
namespace {

facts::FunctionFact fn(std::string usr, std::string name, std::vector<std::string> params) {
  facts::FunctionFact f;
  f.usr = std::move(usr);
  f.name = std::move(name);
  for (auto& p : params) f.params.push_back({p, "T*", false, ""});
  return f;
}

facts::SiteFact site(std::string callee, std::string caller, std::string file, unsigned line,
                     std::vector<facts::ArgFact> args) {
  facts::SiteFact s;
  s.calleeUsr = std::move(callee);
  s.callerUsr = std::move(caller);
  s.file = std::move(file);
  s.line = line;
  s.column = 1;
  s.via = facts::Via::Call;
  s.args = std::move(args);
  return s;
}

constexpr facts::Supplied E = facts::Supplied::Explicit, D = facts::Supplied::Default,
                          N = facts::Supplied::Null, F = facts::Supplied::Forwarded;

index::Program program() {
  index::Program p;
  p.add({fn("h", "helper", {"pg"}), fn("a", "a", {"x", "pg"}), fn("b", "b", {"pg"}),
         fn("c", "c", {"pg"}), fn("d", "d", {"pg"})},
        {},
        {
            site("h", "a", "src/a.cpp", 1,
                 {{facts::Supplied::Forwarded, 1}}),  // a forwards its pg to helper
            site("a", "b", "src/b.cpp", 2, {{E, -1}, {F, 0}}),
            site("b", "c", "src/c.cpp", 3, {{D, -1}}),  // c leaves it out
            site("b", "c", "src/c.cpp", 4, {{N, -1}}),
            site("b", "c", "tests/c_test.cpp", 5, {{D, -1}}),  // out of scope
            site("h", "d", "src/d.cpp", 6, {{F, 0}}),          // d forwards to helper...
            site("d", "h", "src/h.cpp", 7, {{F, 0}}),          // ...and helper to d: a cycle
            site("h", "", "src/e.cpp", 8, {{E, -1}}),
        });
  p.finish();
  return p;
}

TEST(CallersAnalysis, FollowsForwardingThroughLevelsAndCycles) {
  index::Program p = program();
  std::vector<CallerSite> sites = reach(p, {{"h", 0}});
  std::vector<std::string> got;
  for (const auto& s : sites)
    got.push_back(s.file + ":" + std::to_string(s.line) + " " + facts::str(s.supplied) +
                  (s.forwardedFrom.empty() ? "" : " " + s.forwardedFrom));
  EXPECT_EQ(got,
            (std::vector<std::string>{
                "src/a.cpp:1 forwarded a(pg)", "src/b.cpp:2 forwarded b(pg)", "src/c.cpp:3 default",
                "src/c.cpp:4 null", "src/d.cpp:6 forwarded d(pg)", "src/e.cpp:8 explicit",
                "src/h.cpp:7 forwarded helper(pg)", "tests/c_test.cpp:5 default"}));
}

TEST(CallersAnalysis, OverridesAreTargetsToo) {
  index::Program p;
  facts::FunctionFact base = fn("B::f", "B::f", {"pg"});
  facts::FunctionFact mid = fn("M::f", "M::f", {"pg"});
  mid.overrides = {"B::f"};
  facts::FunctionFact leaf = fn("L::f", "L::f", {"group"});
  leaf.overrides = {"M::f"};
  p.add({base, mid, leaf}, {},
        {site("B::f", "", "x.cpp", 1, {{E, -1}}), site("L::f", "", "x.cpp", 2, {{D, -1}})});
  p.finish();
  CallersResult r = callers(p, "B::f", "pg");
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_EQ(r.sites[1].function, "L::f");
  EXPECT_EQ(r.bySupplied.at(facts::Supplied::Default), 1u);
  EXPECT_EQ(callers(p, "L::f", "group").sites.size(), 1u);  // not up the hierarchy
}

TEST(Laundering, SitesInScopeOmittingTheArgumentBecomeReads) {
  index::Inventory inv;
  inv.program = program();
  facts::Read fallback;
  fallback.file = "lib/h.cpp";
  fallback.name = "ps::get_tp_group";
  fallback.kind = facts::ReadKind::Accessor;
  fallback.group = "tp";
  fallback.yields = facts::Yields::Group;
  fallback.guard = facts::Guard::Fallback;
  fallback.guardFunction = "h";
  fallback.guardParam = 0;
  inv.exemptReads.push_back(fallback);  // the helper itself is exempt
  rules::RulePack pack = rules::parseRulePack(
      R"({"name": "p", "scope": {"include": ["src/**"]}, "globals": [{"variable": "v"}]})",
      "p.json");
  launder(inv, rules::RuleSet({pack}));
  ASSERT_EQ(inv.reads.size(), 2u);  // c.cpp:3 (default) and c.cpp:4 (null); tests/ is out
  EXPECT_EQ(inv.reads[0].kind, facts::ReadKind::Laundered);
  EXPECT_EQ(inv.reads[0].file, "src/c.cpp");
  EXPECT_EQ(inv.reads[0].line, 3u);
  EXPECT_EQ(inv.reads[0].name, "b");
  EXPECT_EQ(inv.reads[0].enclosing, "c");
  EXPECT_EQ(inv.reads[0].analysis.launders, "ps::get_tp_group");
  EXPECT_EQ(inv.reads[1].line, 4u);
  ASSERT_TRUE(inv.exemptReads[0].analysis.fallbackDead.has_value());
  EXPECT_FALSE(*inv.exemptReads[0].analysis.fallbackDead);
  EXPECT_EQ(inv.exemptReads[0].analysis.breakingSites,
            (std::vector<std::string>{"src/c.cpp:3:1", "src/c.cpp:4:1", "tests/c_test.cpp:5:1"}));
}

TEST(Laundering, DefaultArgumentReadsLaunderOnlyIntoOmittingCalls) {
  index::Inventory inv;
  inv.program = program();
  facts::Read dflt;
  dflt.file = "src/b.cpp";
  dflt.name = "ps::get_tp_size";
  dflt.kind = facts::ReadKind::Accessor;
  dflt.group = "tp";
  dflt.inDefaultArgument = true;
  dflt.guardFunction = "b";
  dflt.guardParam = 0;
  inv.reads.push_back(dflt);
  rules::RulePack pack = rules::parseRulePack(
      R"({"name": "p", "scope": {"include": ["src/**"]}, "globals": [{"variable": "v"}]})",
      "p.json");
  launder(inv, rules::RuleSet({pack}));
  // c.cpp:3 leaves it out; c.cpp:4 passes null explicitly, which is not the default.
  ASSERT_EQ(inv.reads.size(), 2u);
  EXPECT_EQ(inv.reads[1].kind, facts::ReadKind::Laundered);
  EXPECT_EQ(inv.reads[1].line, 3u);
  EXPECT_FALSE(inv.reads[0].analysis.fallbackDead.has_value());
}

// A helper the pack names as an accessor that also falls back to module state when a call
// leaves `num_kv_heads` out: the call that leaves it out is one read, the laundered one (it
// replaces the accessor read whose range holds the site); a call passing it stays an accessor
// read, and another accessor's read at the same place stays too. An accessor read that is a
// fallback itself (`sizes or get_size(...)`, line 9) stays, and the laundered read at it goes.
TEST(Laundering, ALaunderedCallOfAnAccessorIsOneRead) {
  index::Inventory inv;
  std::vector<facts::SiteFact> sites{
      site("py:m.get_size", "py:u.f", "src/u.py", 3, {{E, -1}, {D, -1}}),
      site("py:m.get_size", "py:u.f", "src/u.py", 7, {{E, -1}, {E, -1}}),
      site("py:m.get_size", "py:u.g", "src/u.py", 9, {{E, -1}, {D, -1}})};
  for (auto& s : sites) s.column = 12;
  inv.program.add({fn("py:m.get_size", "m.get_size", {"total", "num_kv_heads"})}, {}, sites);
  inv.program.finish();
  facts::Read fallback;
  fallback.file = "m.py";
  fallback.name = "m.num_kv_heads";
  fallback.kind = facts::ReadKind::GlobalState;
  fallback.yields = facts::Yields::State;
  fallback.guard = facts::Guard::Fallback;
  fallback.guardFunction = "py:m.get_size";
  fallback.guardParam = 1;
  inv.exemptReads.push_back(fallback);
  auto accessor = [](std::string name, unsigned line) {
    facts::Read r;
    r.file = "src/u.py";
    r.name = std::move(name);
    r.kind = facts::ReadKind::Accessor;
    r.yields = facts::Yields::State;
    r.line = line;
    r.column = 12;
    r.rangeLine = line;
    r.rangeColumn = 9;
    r.endLine = line;
    r.endColumn = 30;
    return r;
  };
  facts::Read guarded = accessor("m.get_size", 9);
  guarded.guard = facts::Guard::Fallback;
  guarded.guardFunction = "py:u.g";
  guarded.guardParam = 0;
  inv.reads = {accessor("m.get_size", 3), accessor("m.get_other", 3), accessor("m.get_size", 7),
               guarded};
  rules::RulePack pack = rules::parseRulePack(
      R"({"name": "p", "scope": {"include": ["src/**"]}, "globals": [{"variable": "v"}]})",
      "p.json");
  launder(inv, rules::RuleSet({pack}));
  std::vector<std::string> got;
  for (const auto& r : inv.reads)
    got.push_back(r.file + ":" + std::to_string(r.line) + ":" + std::to_string(r.column) + " " +
                  facts::str(r.kind) + " " + r.name + " " + r.analysis.launders);
  EXPECT_EQ(got, (std::vector<std::string>{"src/u.py:3:12 accessor m.get_other ",
                                           "src/u.py:3:12 laundered m.get_size m.num_kv_heads",
                                           "src/u.py:7:12 accessor m.get_size ",
                                           "src/u.py:9:12 accessor m.get_size "}));
}

}  // namespace
}  // namespace gridlock::analysis
