// Each rewrite strategy on hand-made facts: what it edits, what it refuses and why. The facts
// are what the frontend would record for the few lines of code each test quotes; offsets are
// small made-up numbers, since only the edits' positions relative to each other matter here.
#include "rewrite/core/summary.h"
#include "rewrite/cpp/collapse.h"
#include "rewrite/cpp/cpp_state.h"
#include "rewrite/cpp/per_model_state.h"
#include "rewrite/cpp/plan.h"
#include "rewrite/cpp/require.h"
#include "rewrite/cpp/rewriter.h"
#include "rewrite/cpp/store.h"
#include "rewrite/cpp/substitute.h"
#include "rewrite/cpp/supply.h"
#include "rewrite/cpp/thread.h"
#include "rules/rule_pack.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gridlock::rewrite::cpp {
namespace {

using facts::Hint;
using facts::ReadKind;
using facts::Yields;

// The legacy pack's spelling and a collection parameter to thread; `ps::tp_size` is an
// accessor of the tp size, `ps::num_kv_heads` global state with a per-model field.
rules::RuleSet pack() {
  return rules::RuleSet({rules::parseRulePack(R"json({
    "name": "t",
    "types": [{"type": "Coll", "yields": "collection", "groups": ["tp", "dp"]},
              {"type": "Meta", "yields": "state"}],
    "rewrite": {
      "spell": {"group": "{g}", "size": "{g}->size()"},
      "include": "group.h",
      "require": {"spell": "require<{type}>(\"{message}\")", "include": "require.h"},
      "thread": {"type": "const Coll&", "name": "pgc", "yields": "collection",
                 "edge": "Coll::global()", "include": "coll.h"},
      "collapse": {"lookup": "Coll::global()", "type": "const Coll", "name": "pgs",
                   "include": "coll.h"}
    },
    "accessors": [
      {"function": "ps::tp_size", "kind": "accessor", "group": "tp", "yields": "size"},
      {"function": "ps::dp_size", "kind": "accessor", "group": "dp", "yields": "size"},
      {"function": "ps::tp_rank", "kind": "accessor", "group": "tp", "yields": "rank"},
      {"function": "ps::tp_group", "kind": "accessor", "group": "tp", "yields": "group"}
    ],
    "globals": [{"variable": "ps::num_kv_heads", "field": "num_kv_heads", "type": "Meta"},
                {"variable": "ps::unmapped"}]
  })json",
                                              "t.json")});
}

// A read of `name` at `file:line`, in `fn` (USR and name the same), hint Thread.
facts::Read read(const std::string& name, const std::string& fn, unsigned line, unsigned offset) {
  facts::Read r;
  r.file = "m.cpp";
  r.line = line;
  r.column = 10;
  r.name = name;
  r.kind = ReadKind::Accessor;
  r.group = name == "ps::dp_size" ? "dp" : "tp";
  r.yields = name == "ps::tp_rank"    ? Yields::Rank
             : name == "ps::tp_group" ? Yields::Group
                                      : Yields::Size;
  r.enclosing = fn;
  r.enclosingUsr = fn;
  r.hint.fix = Hint::Thread;
  r.offset = offset;
  r.length = 12;
  r.type = "int";
  return r;
}

facts::FunctionFact function(const std::string& name, std::vector<std::string> params = {}) {
  facts::FunctionFact f;
  f.usr = name;
  f.name = name;
  f.file = "m.cpp";
  for (auto& p : params) f.params.push_back({p, "int", false, ""});
  return f;
}

// One declaration's parameter list: `name(int a)` with the parentheses at lparen/rparen.
facts::ParamListFact list(const std::string& usr, unsigned lparen, unsigned rparen,
                          unsigned written, unsigned bodyFirst = 0) {
  facts::ParamListFact l;
  l.usr = usr;
  l.file = "m.cpp";
  l.lparen = lparen;
  l.rparen = rparen;
  l.written = written;
  for (unsigned i = 0; i < written; ++i) {
    l.paramBegins.push_back(lparen + 1 + 6 * i);
    l.defaults.emplace_back(0, 0);
  }
  l.bodyFirst = bodyFirst;
  l.bodyIndent = "  ";
  l.bodyIndented = bodyFirst != 0;
  return l;
}

facts::CallFact call(const std::string& callee, const std::string& caller, unsigned line,
                     unsigned rparen, std::vector<facts::SourceFact> sources = {}) {
  facts::CallFact c;
  c.calleeUsr = callee;
  c.callerUsr = caller;
  c.file = "m.cpp";
  c.line = line;
  c.column = 3;
  c.rparen = rparen;
  c.sources = std::move(sources);
  return c;
}

facts::SourceFact collectionSource(const std::string& spelling) {
  return {spelling, Yields::Collection, "", spelling, {}, {"tp", "dp"}};
}

std::vector<std::string> editsOf(const Plan& p) {
  std::vector<std::string> out;
  for (const auto& e : p.edits)
    out.push_back(std::to_string(e.offset) + "+" + std::to_string(e.length) + " " + e.text);
  std::sort(out.begin(), out.end());
  return out;
}

std::string verdictOf(const CppState& s, size_t i) {
  const facts::Verdict& v = s.plan.verdicts[i];
  return std::string(facts::spell(v)) + (v.applied ? " applied" : " left") + ": " + v.detail;
}

class Strategies : public ::testing::Test {
 protected:
  rules::RuleSet rules = pack();
  index::Inventory inv;
};

TEST_F(Strategies, SubstituteSpellsTheValueFromTheSourceInScope) {
  facts::Read r = read("ps::tp_size", "f", 3, 40);
  r.hint = {Hint::Substitute, "this->pgc_->tp", true};
  facts::Read group = read("ps::tp_group", "f", 4, 60);
  group.hint = {Hint::Substitute, "groups.tp", false};
  inv.reads = {r, group};
  CppState s(inv, rules, nullptr);
  Substitute().run(s);
  EXPECT_EQ(editsOf(s.plan),
            (std::vector<std::string>{"40+12 this->pgc_->tp->size()", "60+12 groups.tp"}));
  EXPECT_EQ(verdictOf(s, 0), "substitute applied: replaced with this->pgc_->tp->size()");
  // A derived value needs the group's full type; the group itself does not.
  ASSERT_EQ(s.includes.size(), 1u);
  EXPECT_EQ(s.includes[0].header, "group.h");
  EXPECT_EQ(s.plan.tally(facts::Strategy::Substitute).reads, 2u);
}

TEST_F(Strategies, SubstituteRefusesWhereTheSourceCannotBeUsed) {
  facts::Read lambda = read("ps::tp_size", "f", 3, 40);
  lambda.hint = {Hint::Substitute, "groups.tp", true};
  lambda.inLambda = true;
  facts::Read init = read("ps::tp_size", "C::C", 4, 60);
  init.hint = {Hint::Substitute, "this->pgc_->tp", true};
  init.inInitializer = true;
  facts::Read named = read("ps::tp_size", "f", 5, 80);
  named.hint = {Hint::Substitute, "groups.tp", true};
  named.called = false;
  facts::Read rank = read("ps::tp_rank", "f", 6, 100);  // the pack has no spell.rank
  rank.hint = {Hint::Substitute, "groups.tp", true};
  inv.reads = {lambda, init, named, rank};
  CppState s(inv, rules, nullptr);
  Substitute().run(s);
  EXPECT_TRUE(s.plan.edits.empty());
  EXPECT_EQ(verdictOf(s, 0), "lambda left: inside a lambda: groups.tp would have to be captured");
  EXPECT_EQ(verdictOf(s, 1),
            "initializer left: in a constructor's initializer list, where this->pgc_->tp may "
            "not be initialized yet");
  EXPECT_EQ(verdictOf(s, 2),
            "function_pointer left: the accessor is named, not called (a function pointer or "
            "callback)");
  EXPECT_EQ(verdictOf(s, 3),
            "no_spelling left: the rule pack says nothing about spelling a rank from a group "
            "(rewrite.spell.rank)");
}

TEST_F(Strategies, PerModelStateReadsTheFieldOfTheStateInScope) {
  facts::Read kv = read("ps::num_kv_heads", "f", 3, 40);
  kv.kind = ReadKind::GlobalState;
  kv.group = "";
  kv.yields = Yields::State;
  kv.hint = {Hint::Substitute, "meta->num_kv_heads", false};
  facts::Read none = kv;
  none.offset = 60;
  none.hint = {Hint::Thread, "", true};
  facts::Read unmapped = none;
  unmapped.name = "ps::unmapped";
  unmapped.offset = 80;
  inv.reads = {kv, none, unmapped};
  CppState s(inv, rules, nullptr);
  PerModelState().run(s);
  EXPECT_EQ(editsOf(s.plan), std::vector<std::string>{"40+12 meta->num_kv_heads"});
  EXPECT_EQ(verdictOf(s, 0), "substitute applied: replaced with meta->num_kv_heads");
  EXPECT_EQ(verdictOf(s, 1), "no_source left: no Meta in scope to read num_kv_heads from");
  EXPECT_EQ(verdictOf(s, 2),
            "no_source left: mutable global state that the rule pack maps to no per-model "
            "field (globals[].field)");
  EXPECT_EQ(s.plan.tally(facts::Strategy::Substitute).reads, 1u);  // counted as substituted
}

TEST_F(Strategies, RequireTurnsADeadFallbackIntoACheck) {
  facts::Read r = read("ps::tp_group", "resolve", 3, 40);
  r.guard = facts::Guard::Fallback;
  r.hint.fix = Hint::Require;
  r.holder = "pg";
  r.guardFunction = "resolve";
  r.guardParam = 0;
  r.type = "Group*";
  r.analysis.fallbackDead = true;
  facts::Read eager = r;
  eager.offset = 60;
  eager.eagerFallback = true;
  facts::Read local = r;
  local.offset = 80;
  local.analysis.fallbackDead.reset();  // tests a local, not a parameter
  inv.reads = {r, eager, local};
  inv.program.add({function("resolve", {"pg"})}, {}, {});
  inv.program.finish();
  CppState s(inv, rules, nullptr);
  Require().run(s);
  EXPECT_EQ(editsOf(s.plan),
            std::vector<std::string>{"40+12 require<Group*>(\"resolve requires an explicit pg\")"});
  EXPECT_EQ(verdictOf(s, 0),
            "require applied: no call site leaves pg out: fails loudly (\"resolve requires an "
            "explicit pg\")");
  EXPECT_EQ(verdictOf(s, 1),
            "eager_fallback left: value_or evaluates the global read even when pg is given: "
            "rewrite as a test by hand");
  EXPECT_EQ(verdictOf(s, 2),
            "open_fallback left: the fallback tests pg, not a parameter: callers cannot prove "
            "it dead");
}

TEST_F(Strategies, RequireKeepsAPublicFallback) {
  facts::Read r = read("ps::tp_group", "resolve", 3, 40);
  r.guard = facts::Guard::Fallback;
  r.holder = "pg";
  r.guardFunction = "resolve";
  r.guardParam = 0;
  r.analysis.fallbackDead = true;
  facts::FunctionFact f = function("resolve", {"pg"});
  f.isPublicApi = true;
  inv.reads = {r};
  inv.program.add({f}, {}, {});
  inv.program.finish();
  CppState s(inv, rules, nullptr);
  Require().run(s);
  EXPECT_TRUE(s.plan.edits.empty());
  EXPECT_EQ(verdictOf(s, 0),
            "public_api left: resolve is declared in a public header: callers outside the "
            "codebase may leave pg out");
}

// `int f() { return ps::tp_size(); }` called from `int g(const Coll& groups) { f(); }`:
// f gets the parameter, g passes what it holds.
TEST_F(Strategies, ThreadAddsTheParameterAndEveryCallerPassesWhatItHolds) {
  inv.reads = {read("ps::tp_size", "f", 1, 17)};
  inv.program.add({function("f"), function("g", {"groups"})}, {}, {});
  inv.program.finish();
  inv.rewrite.collected = true;
  inv.rewrite.lists["f"] = {list("f", 5, 6, 0)};
  inv.rewrite.lists["g"] = {list("g", 40, 58, 1)};
  inv.rewrite.calls["f"] = {call("f", "g", 2, 70, {collectionSource("groups")})};
  CppState s(inv, rules, nullptr);
  Thread().run(s);
  EXPECT_EQ(editsOf(s.plan), (std::vector<std::string>{"17+12 pgc.tp->size()",
                                                       "6+0 const Coll& pgc", "70+0 groups"}));
  EXPECT_EQ(verdictOf(s, 0),
            "thread applied: replaced with pgc.tp->size(), pgc threaded through 1 function(s)");
  EXPECT_EQ(s.plan.tally(facts::Strategy::Thread).places, 1u);
}

TEST_F(Strategies, ThreadRefusesWhatItCannotClose) {
  facts::Read inVirtual = read("ps::tp_size", "V::f", 1, 17);
  facts::Read byPointer = read("ps::tp_size", "p", 2, 40);
  facts::Read inMain = read("ps::tp_size", "main", 3, 60);
  inv.reads = {inVirtual, byPointer, inMain};
  facts::FunctionFact v = function("V::f");
  v.isVirtual = true;
  inv.program.add({v, function("p"), function("main")}, {}, {});
  inv.program.finish();
  inv.rewrite.collected = true;
  inv.rewrite.lists["p"] = {list("p", 30, 31, 0)};
  inv.rewrite.addressTaken.insert("p");
  CppState s(inv, rules, nullptr);
  Thread().run(s);
  EXPECT_TRUE(s.plan.edits.empty());
  EXPECT_EQ(verdictOf(s, 0),
            "virtual_dispatch left: V::f is virtual: every override and every call through the "
            "base would change together");
  EXPECT_EQ(verdictOf(s, 1),
            "function_pointer left: cannot thread pgc: p's address is taken: calls through the "
            "pointer are not seen");
  EXPECT_EQ(verdictOf(s, 2),
            "open_call_graph left: cannot thread pgc: main cannot take a parameter");
  // Virtual and main stay function-level reads: Collapse may still take them.
  EXPECT_TRUE(s.functionLevel(0));
  EXPECT_TRUE(s.functionLevel(2));
}

// A class for Store: `name` with one constructor `name::name(int n)` defined at 200..210,
// no initializer written (one goes after the declarator, at 211), its member going in at 300.
facts::ClassFact storeClass(const std::string& name) {
  facts::ClassFact k;
  k.usr = k.name = name;
  k.file = "m.cpp";
  return k;
}

facts::ClassBodyFact storeBody(const std::string& name) {
  facts::ClassBodyFact k;
  k.usr = name;
  k.file = "m.cpp";
  k.memberAt = 300;
  k.memberOwnLine = true;
  k.memberIndent = "  ";
  k.accessIndent = " ";
  k.endAccess = facts::Access::Public;
  k.constructors = {name + "::" + name};
  k.memberNames = {"f"};
  return k;
}

facts::FunctionFact method(const std::string& cls, const std::string& name) {
  facts::FunctionFact f = function(cls + "::" + name);
  f.classUsr = cls;
  f.isVirtual = name != "operator()";
  return f;
}

// A virtual method keeps the collection in a member of its class: the constructor takes it and
// initialises the member, the construction passes what its caller holds.
TEST_F(Strategies, StoreKeepsTheValueInAMemberTheConstructorsInitialise) {
  inv.reads = {read("ps::tp_size", "D::f", 1, 17)};
  facts::FunctionFact ctor = function("D::D", {"n"});
  ctor.classUsr = "D";
  ctor.isConstructor = true;
  facts::SiteFact built;
  built.calleeUsr = "D::D";
  built.callerUsr = "g";
  built.file = "m.cpp";
  built.line = 9;
  built.column = 3;
  built.classUsr = "D";
  built.args = {{}};
  built.args[0].length = 1;
  built.args[0].insertAt = 80;
  built.rparen = 81;
  built.written = 1;
  built.sources = {collectionSource("groups")};
  inv.program.add({method("D", "f"), ctor, function("g", {"groups"})}, {storeClass("D")}, {built});
  inv.rewrite.classBodies["D"] = storeBody("D");
  inv.program.finish();
  inv.rewrite.collected = true;
  facts::ParamListFact def = list("D::D", 200, 210, 1);
  def.definition = true;
  def.initAt = 211;
  inv.rewrite.lists["D::D"] = {def};
  CppState s(inv, rules, nullptr);
  Thread().run(s);
  // Thread gives the constructor the parameter and hands the method's read to Store.
  EXPECT_EQ(editsOf(s.plan),
            (std::vector<std::string>{"210+0 , const Coll& pgc", "81+0 , groups"}));
  ASSERT_EQ(s.stored.size(), 1u);
  EXPECT_EQ(s.stored[0].classUsr, "D");
  Store().run(s);
  EXPECT_EQ(editsOf(s.plan),
            (std::vector<std::string>{
                "17+12 pgc_.tp->size()", "210+0 , const Coll& pgc", "211+0  : pgc_(pgc)",
                "300+0 \n private:\n  const Coll& pgc_;\n", "81+0 , groups"}));
  EXPECT_EQ(verdictOf(s, 0),
            "store applied: replaced with pgc_.tp->size(), pgc kept in D at construction, "
            "threaded through 1 function(s)");
  EXPECT_EQ(s.plan.tally(facts::Strategy::Store).reads, 1u);
  EXPECT_EQ(s.plan.tally(facts::Strategy::Store).places, 1u);
}

// What stops a class keeping the value, each named; the read stays for what stops its method
// taking a parameter (virtual, an operator), or for the member's name.
TEST_F(Strategies, StoreSaysWhyAClassCannotKeepTheValue) {
  inv.reads = {read("ps::tp_size", "A::f", 1, 17), read("ps::tp_size", "B::operator()", 2, 40),
               read("ps::tp_size", "C::f", 3, 60), read("ps::tp_size", "T::f", 4, 80)};
  facts::ClassBodyFact a = storeBody("A");
  a.userCopy = true;
  facts::ClassBodyFact b = storeBody("B");
  b.constructors.clear();
  facts::ClassBodyFact c = storeBody("C");
  c.memberNames.push_back("pgc_");
  facts::ClassBodyFact t = storeBody("T");
  t.isTemplate = true;
  inv.program.add({method("A", "f"), method("B", "operator()"), method("C", "f"), method("T", "f")},
                  {storeClass("A"), storeClass("B"), storeClass("C"), storeClass("T")}, {});
  for (const facts::ClassBodyFact& body : {a, b, c, t}) inv.rewrite.classBodies[body.usr] = body;
  inv.program.finish();
  inv.rewrite.collected = true;
  CppState s(inv, rules, nullptr);
  Thread().run(s);
  EXPECT_TRUE(s.plan.edits.empty());
  EXPECT_EQ(verdictOf(s, 0),
            "virtual_dispatch left: cannot thread pgc: A::f cannot take pgc, and A cannot keep it: "
            "it has a copy or move constructor of its own, which would not copy the member");
  EXPECT_EQ(verdictOf(s, 1),
            "open_call_graph left: cannot thread pgc: B::operator() cannot take pgc, and B cannot "
            "keep it: it declares no constructor to take pgc");
  EXPECT_EQ(verdictOf(s, 2),
            "name_clash left: cannot thread pgc: C::f cannot take pgc, and C cannot keep it: C "
            "already declares pgc_");
  EXPECT_EQ(verdictOf(s, 3),
            "virtual_dispatch left: cannot thread pgc: T::f cannot take pgc, and T cannot keep it: "
            "it is a template (not done by this version)");
  for (size_t i = 0; i < 4; ++i) EXPECT_TRUE(s.functionLevel(i)) << i;
}

// A read no value of the threaded parameter can stand for says what it needs, in words.
TEST_F(Strategies, ThreadSaysWhatAReadItCannotServeNeeds) {
  rules::RuleSet mpi({rules::parseRulePack(R"json({
    "name": "m", "types": [{"type": "MPI_Comm", "yields": "group", "group": "world"}],
    "rewrite": {"spell": {"group": "{g}"},
                "thread": {"type": "MPI_Comm", "name": "comm", "group": "world",
                           "edge": "MPI_COMM_WORLD"}},
    "accessors": [{"function": "ps::tp_size", "kind": "accessor", "group": "tp", "yields": "size"},
                  {"function": "ps::all", "kind": "shim", "yields": "collection"}]})json",
                                           "m.json")});
  facts::Read shim = read("ps::all", "f", 2, 40);
  shim.kind = ReadKind::Shim;
  shim.group = "";
  shim.yields = Yields::Collection;
  inv.reads = {read("ps::tp_size", "f", 1, 17), shim};
  inv.program.add({function("f")}, {}, {});
  inv.program.finish();
  inv.rewrite.collected = true;
  CppState s(inv, mpi, nullptr);
  Thread().run(s);
  EXPECT_EQ(verdictOf(s, 0),
            "no_source left: nothing in scope holds the tp group, and the pack threads only the "
            "world group");
  EXPECT_EQ(verdictOf(s, 1),
            "no_source left: nothing in scope holds a collection, and the pack threads only the "
            "world group");
}

// A parameter that would replace no read is not added: callers would only pass the global.
TEST_F(Strategies, ThreadLeavesAFunctionWhoseReadsItCannotSpell) {
  facts::Read rank = read("ps::tp_rank", "f", 1, 17);  // the pack spells no rank
  inv.reads = {rank};
  inv.program.add({function("f"), function("g", {"groups"})}, {}, {});
  inv.program.finish();
  inv.rewrite.collected = true;
  inv.rewrite.lists["f"] = {list("f", 5, 6, 0)};
  inv.rewrite.calls["f"] = {call("f", "g", 2, 70, {collectionSource("groups")})};
  CppState s(inv, rules, nullptr);
  Thread().run(s);
  EXPECT_TRUE(s.plan.edits.empty());
  EXPECT_EQ(verdictOf(s, 0),
            "no_spelling left: the rule pack says nothing about spelling a rank from a group "
            "(rewrite.spell.rank), so pgc is not threaded");
}

TEST_F(Strategies, ThreadWithoutTheRewritersFactsSaysItWasNotDone) {
  inv.reads = {read("ps::tp_size", "f", 1, 17)};
  inv.program.add({function("f")}, {}, {});
  inv.program.finish();
  CppState s(inv, rules, nullptr);
  Thread().run(s);
  EXPECT_TRUE(s.plan.edits.empty());
  EXPECT_EQ(verdictOf(s, 0),
            "thread left: no group in scope: a group parameter would have to be threaded into f "
            "and its callers (not done by this version)");
}

// `h(Group* pg = nullptr)` falls back to the global; `use(const Coll& groups) { h(); }`
// launders it, and holds the collection to pass.
TEST_F(Strategies, SupplyGivesALeftOutArgumentWhatTheSiteHolds) {
  facts::Read fallback = read("ps::tp_group", "h", 1, 17);
  fallback.guard = facts::Guard::Fallback;
  fallback.guardFunction = "h";
  fallback.guardParam = 0;
  facts::SiteFact site;
  site.calleeUsr = "h";
  site.callerUsr = "use";
  site.file = "m.cpp";
  site.line = 5;
  site.column = 3;
  site.rparen = 90;
  facts::ArgFact arg;
  arg.supplied = facts::Supplied::Default;
  arg.yields = Yields::Group;
  arg.shape = {facts::Holder::Smart};
  site.args = {arg};
  site.sources = {collectionSource("groups")};
  facts::Read laundered = read("h", "use", 5, 88);
  laundered.kind = ReadKind::Laundered;
  laundered.column = 3;
  laundered.analysis.launders = "ps::tp_group";
  inv.reads = {fallback, laundered};
  inv.program.add({function("h", {"pg"}), function("use", {"groups"})}, {}, {site});
  inv.program.finish();
  CppState s(inv, rules, nullptr);
  Supply().run(s);
  EXPECT_EQ(editsOf(s.plan), std::vector<std::string>{"90+0 groups.tp"});
  EXPECT_EQ(verdictOf(s, 1),
            "substitute applied: passes groups.tp instead of leaving the group to h");
  EXPECT_TRUE(s.open(0));  // the fallback itself is Require's
  EXPECT_EQ(s.plan.tally(facts::Strategy::Supply).places, 1u);
}

// `int Layer::width() { return ps::tp_size() * ps::dp_size(); }`, virtual: one lookup.
TEST_F(Strategies, CollapseTurnsAFunctionsReadsIntoOneLookup) {
  facts::Read tp = read("ps::tp_size", "Layer::width", 2, 30);
  facts::Read dp = read("ps::dp_size", "Layer::width", 2, 45);
  inv.reads = {tp, dp};
  inv.rewrite.collected = true;
  inv.rewrite.lists["Layer::width"] = {list("Layer::width", 20, 21, 0, /*bodyFirst=*/23)};
  facts::FunctionFact f = function("Layer::width");
  f.isVirtual = true;
  inv.program.add({f}, {}, {});
  inv.program.finish();
  CppState s(inv, rules, nullptr);
  ASSERT_TRUE(s.functionLimits(0) && s.functionLimits(1));  // what Thread leaves them with
  Collapse().run(s);
  EXPECT_EQ(editsOf(s.plan),
            (std::vector<std::string>{"23+0 const Coll pgs = Coll::global();\n  ",
                                      "30+12 pgs.tp->size()", "45+12 pgs.dp->size()"}));
  EXPECT_EQ(s.plan.verdicts[0].applied, facts::Strategy::Collapse);
  EXPECT_TRUE(s.plan.verdicts[1].applied.has_value());
  EXPECT_EQ(s.plan.tally(facts::Strategy::Collapse).places, 1u);
}

TEST_F(Strategies, CollapseLeavesASingleRead) {
  inv.reads = {read("ps::tp_size", "Layer::width", 2, 30)};
  inv.rewrite.collected = true;
  inv.rewrite.lists["Layer::width"] = {list("Layer::width", 20, 21, 0, 23)};
  facts::FunctionFact f = function("Layer::width");
  f.isVirtual = true;
  inv.program.add({f}, {}, {});
  inv.program.finish();
  CppState s(inv, rules, nullptr);
  ASSERT_TRUE(s.functionLimits(0));
  Collapse().run(s);
  EXPECT_TRUE(s.plan.edits.empty());
  EXPECT_EQ(s.plan.verdicts[0].left, facts::Left::VirtualDispatch);
}

TEST_F(Strategies, ThePlannerDecidesEveryReadAndSaysWhatItDid) {
  facts::Read sub = read("ps::tp_size", "f", 3, 40);
  sub.hint = {Hint::Substitute, "groups.tp", true};
  facts::Read edge = read("ps::tp_size", "main", 4, 60);
  edge.edge = true;
  edge.hint.fix = Hint::None;
  inv.reads = {sub, edge};
  Plan p = plan(inv, rules);
  ASSERT_EQ(p.verdicts.size(), 2u);
  EXPECT_EQ(p.verdicts[1].detail, "edge file: reads are allowed here");
  Rewriters backends;
  backends.push_back(std::make_unique<CppRewriter>());
  EXPECT_EQ(summaryLine(p, inv, backends),
            "1 substituted, 0 required, 0 threaded (through 0 function(s)), "
            "1 left (none 1)");
}

TEST_F(Strategies, ThePlannerLeavesAnotherLanguagesReadsWithoutAVerdict) {
  facts::Read sub = read("ps::tp_size", "f", 3, 40);
  sub.hint = {Hint::Substitute, "groups.tp", true};
  facts::Read py = read("ps::tp_size", "f", 5, 80);
  py.language = facts::Language::Python;
  py.file = "model.py";
  inv.reads = {sub, py};
  Plan p = plan(inv, rules);
  ASSERT_EQ(p.verdicts.size(), 2u);
  EXPECT_EQ(p.verdicts[0].applied, facts::Strategy::Substitute);
  // The Python backend's to decide: the C++ plan says nothing of it.
  EXPECT_FALSE(p.verdicts[1].applied);
  EXPECT_EQ(p.verdicts[1].left, facts::Verdict{}.left);
  EXPECT_EQ(p.verdicts[1].detail, "");
}

}  // namespace
}  // namespace gridlock::rewrite::cpp
