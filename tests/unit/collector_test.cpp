// The read collector on small in-memory sources: what is a read, a write, a fallback (guards),
// the types a pack's accessors return (inferred types) and the rules a unit declares.
#include "facts/facts.h"
#include "frontend/file_places.h"
#include "frontend/read_collector.h"
#include "rules/rule_set.h"

#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/Tooling.h>
#include <gtest/gtest.h>

namespace gridlock::frontend {
namespace {

const char* kPack = R"({
  "name": "t",
  "types": [{"type": "ps::PG", "yields": "group"}, {"type": "Coll", "yields": "collection"}],
  "accessors": [
    {"function": "ps::get_tp_group", "kind": "accessor", "group": "tp", "yields": "group"},
    {"function": "ps::get_tp_size", "kind": "accessor", "group": "tp", "yields": "size"},
    {"function": "Coll::from_globals", "kind": "shim"}],
  "globals": [{"variable": "ps::num_kv_heads"}, {"variable": "ps::cfg"}],
  "setters": [{"function": "ps::set_num_kv_heads", "writes": "ps::num_kv_heads"}]
})";

const char* kPrelude = R"(
namespace ps { struct PG {}; PG* get_tp_group(); int get_tp_size(); extern int num_kv_heads; void set_num_kv_heads(int); }
using ps::PG;
struct Coll { PG* tp; static Coll from_globals(); };
namespace std { template <class T> struct optional { T value_or(T) const; bool has_value() const; }; }
namespace other { ps::PG* get_tp_group(); }
namespace ps { struct Cfg { int stage; void reset(); int get() const; }; extern Cfg cfg; }
)";

std::vector<facts::Read> scan(const std::string& body) {
  static rules::RuleSet rules(std::vector<rules::RulePack>{rules::parseRulePack(kPack, "t.json")});
  auto ast = clang::tooling::buildASTFromCodeWithArgs(std::string(kPrelude) + body, {"-std=c++20"},
                                                      "/src/input.cc");
  EXPECT_TRUE(ast);
  EXPECT_FALSE(ast->getDiagnostics().hasErrorOccurred()) << body;
  facts::TuFacts out;
  FilePlaces places(ast->getSourceManager(), rules, "/src");
  ReadCollector collector(ast->getASTContext(), rules, places, {}, out);
  collector.TraverseDecl(ast->getASTContext().getTranslationUnitDecl());
  collector.finish();
  return out.reads;
}

std::string only(const std::string& body) {
  auto reads = scan(body);
  if (reads.size() != 1) return "reads: " + std::to_string(reads.size());
  const auto& r = reads[0];
  return facts::str(r.kind) + " " + facts::str(r.guard) + " " + facts::str(r.hint.fix) +
         (r.hint.source.empty() ? "" : " " + r.hint.source);
}

TEST(Guard, ConditionalFallbacks) {
  EXPECT_EQ(only("PG* f(PG* pg) { return pg ? pg : ps::get_tp_group(); }"),
            "accessor fallback require");
  EXPECT_EQ(only("PG* f(PG* pg) { return !pg ? ps::get_tp_group() : pg; }"),
            "accessor fallback require");
  EXPECT_EQ(only("PG* f(PG* pg) { return pg ?: ps::get_tp_group(); }"),
            "accessor fallback require");
  EXPECT_EQ(only("PG* f(PG* pg) { return pg != nullptr ? pg : ps::get_tp_group(); }"),
            "accessor fallback require");
  // The read on the branch that runs when the group is present is no fallback.
  EXPECT_EQ(only("PG* f(PG* tp) { return tp ? ps::get_tp_group() : tp; }"),
            "accessor none substitute tp");
}

TEST(Guard, IfFallbacks) {
  EXPECT_EQ(only("void f(PG* pg) { if (!pg) pg = ps::get_tp_group(); }"),
            "accessor fallback require");
  EXPECT_EQ(only("void f(PG* pg) { if (pg == nullptr) { pg = ps::get_tp_group(); } }"),
            "accessor fallback require");
  EXPECT_EQ(only("void f(PG* pg) { if (nullptr == pg) pg = ps::get_tp_group(); }"),
            "accessor fallback require");
  EXPECT_EQ(only("void f(PG* pg) { if (pg) {} else { pg = ps::get_tp_group(); } }"),
            "accessor fallback require");
  // A conjunction says what each of its operands says; the else of a disjunction too.
  EXPECT_EQ(only("void f(PG* pg, bool b) { if (!pg && b) pg = ps::get_tp_group(); }"),
            "accessor fallback require");
  EXPECT_EQ(only("void f(PG* pg, bool b) { if (pg || b) {} else { pg = ps::get_tp_group(); } }"),
            "accessor fallback require");
  EXPECT_EQ(only("PG* f(PG* pg, bool b) { if (pg || b) return pg; return ps::get_tp_group(); }"),
            "accessor fallback require");
  // The else of a conjunction of two groups runs only when one is missing.
  EXPECT_EQ(only("PG* f(PG* pg, PG* dp) { if (pg && dp) return pg; return ps::get_tp_group(); }"),
            "accessor fallback require");
  EXPECT_EQ(only("struct A { PG* pg_; void f() { if (!this->pg_) pg_ = ps::get_tp_group(); } };"),
            "accessor fallback require");
  EXPECT_EQ(only("PG* f(std::optional<PG*> pg) { return pg.value_or(ps::get_tp_group()); }"),
            "accessor fallback require");
  EXPECT_EQ(only("PG* f(PG* pg) { if (pg) return pg; return ps::get_tp_group(); }"),
            "accessor fallback require");
  EXPECT_EQ(only("PG* f(PG* pg) { if (pg != nullptr) { return pg; } PG* g = ps::get_tp_group(); "
                 "return g; }"),
            "accessor fallback require");
}

TEST(Guard, NotFallbacks) {
  EXPECT_EQ(only("int f(PG* pg) { if (pg) return ps::get_tp_size(); return 0; }"),
            "accessor none thread");  // `pg` does not say which group it holds
  // A plain flag is not an explicit group.
  EXPECT_EQ(only("int f(bool use) { if (!use) return ps::get_tp_size(); return 0; }"),
            "accessor none thread");
  // An early return that does not test the group, or does not always leave, is no guard.
  EXPECT_EQ(only("int f(PG* pg, int n) { if (n) return 0; return ps::get_tp_size(); }"),
            "accessor none thread");
  EXPECT_EQ(only("int f(PG* pg, int n) { if (pg) { n = 1; } return ps::get_tp_size(); }"),
            "accessor none thread");
  // Tests of things that cannot hold a group (the pack's type rules say what can).
  EXPECT_EQ(only("int f(double* buf) { if (!buf) return ps::get_tp_size(); return 0; }"),
            "accessor none thread");
  EXPECT_EQ(only("int f(int rank) { if (rank == 0) return ps::get_tp_size(); return 0; }"),
            "accessor none thread");
  EXPECT_EQ(only("int f(int n) { return n != 0 ? 0 : ps::get_tp_size(); }"),
            "accessor none thread");
  // A disjunction with a test of something else runs with the group given too, and so does the
  // else of a conjunction with one.
  EXPECT_EQ(only("void f(PG* pg, bool b) { if (!pg || b) pg = ps::get_tp_group(); }"),
            "accessor none thread");
  EXPECT_EQ(only("void f(PG* pg, bool b) { if (pg && b) {} else { pg = ps::get_tp_group(); } }"),
            "accessor none thread");
  // A lambda body runs when called, not under the condition around it.
  EXPECT_EQ(only("void f(PG* pg) { if (!pg) { auto l = [] { return ps::get_tp_size(); }; l(); } }"),
            "accessor none thread");
}

// The tests of other parameters a fallback runs under, for laundering: a call whose argument
// fails one cannot run it. A parameter the function assigns is tested on its new value: none.
TEST(Guard, TestsOfOtherParameters) {
  using facts::Expect;
  using Tests = std::vector<facts::ParamTest>;
  auto testsOf = [](const std::string& body) {
    std::vector<facts::Read> reads = scan(body);
    EXPECT_EQ(reads.size(), 1u) << body;
    return reads.empty() ? Tests{} : reads[0].guardTests;
  };
  EXPECT_EQ(testsOf("PG* f(bool shard, PG* pg = nullptr) { if (shard) { if (!pg) "
                    "pg = ps::get_tp_group(); } return pg; }"),
            (Tests{{0, Expect::True}}));
  EXPECT_EQ(testsOf("PG* f(int* heads, PG* pg = nullptr) { if (heads == nullptr) return pg; "
                    "if (!pg) pg = ps::get_tp_group(); return pg; }"),
            (Tests{{0, Expect::NotNone}}));
  EXPECT_EQ(testsOf("PG* f(bool a, bool b, PG* pg) { if (!a) return pg; "
                    "return pg ? pg : b ? nullptr : ps::get_tp_group(); }"),
            (Tests{{1, Expect::False}, {0, Expect::True}}));
  EXPECT_EQ(testsOf("PG* f(bool shard, PG* pg = nullptr) { shard = !shard; "
                    "if (shard && !pg) pg = ps::get_tp_group(); return pg; }"),
            Tests{});
}

TEST(Collector, SemanticMatchingNotNames) {
  EXPECT_EQ(scan("int f() { return other::get_tp_group() != nullptr; }").size(), 0u);
  EXPECT_EQ(
      scan("struct S { PG* get_tp_group(); }; PG* f(S s) { return s.get_tp_group(); }").size(), 0u);
  EXPECT_EQ(only("namespace q = ps; int f() { return q::get_tp_size(); }"), "accessor none thread");
  EXPECT_EQ(only("using ps::get_tp_size; int f() { return get_tp_size(); }"),
            "accessor none thread");
  EXPECT_EQ(only("auto p = &ps::get_tp_size;"), "accessor none thread");
  EXPECT_EQ(only("Coll f() { return Coll::from_globals(); }"), "shim none thread");
  // A template read counts once however often it is instantiated.
  EXPECT_EQ(scan("template <class T> int f(T) { return ps::get_tp_size(); }"
                 "int g() { return f(1) + f(2.0) + f('c'); }")
                .size(),
            1u);
}

TEST(Collector, FixSourcesFromScope) {
  EXPECT_EQ(only("int f(Coll c) { return ps::get_tp_size(); }"), "accessor none substitute c.tp");
  EXPECT_EQ(only("int f(Coll* c) { return ps::get_tp_size(); }"), "accessor none substitute c->tp");
  EXPECT_EQ(only("struct B { protected: Coll* pgc_; }; struct D : B { int f() { return "
                 "ps::get_tp_size(); } };"),
            "accessor none substitute this->pgc_->tp");
  EXPECT_EQ(only("int f() { Coll local; return ps::get_tp_size(); }"),
            "accessor none substitute local.tp");
  // A local of a sibling block is not in scope; a group named for another group is no source.
  EXPECT_EQ(only("int f(PG* dp_group) { { Coll c; } return ps::get_tp_size(); }"),
            "accessor none thread");
  EXPECT_EQ(only("int f(PG* tp_group) { return ps::get_tp_size(); }"),
            "accessor none substitute tp_group");
  EXPECT_EQ(only("struct B { private: Coll* pgc_; }; struct D : B { int f() { return "
                 "ps::get_tp_size(); } };"),
            "accessor none thread");
}

TEST(Collector, WritesAreListedApart) {
  auto kinds = [](const std::string& body) {
    std::string s;
    for (const auto& r : scan(body)) s += (s.empty() ? "" : ",") + facts::str(r.kind);
    return s;
  };
  EXPECT_EQ(kinds("void f() { ps::num_kv_heads = 8; }"), "global_write");
  EXPECT_EQ(kinds("void f() { ps::num_kv_heads += 8; }"), "global_write");
  EXPECT_EQ(kinds("void f() { ++ps::num_kv_heads; }"), "global_write");
  EXPECT_EQ(kinds("int f() { return ps::num_kv_heads; }"), "global_state");
  EXPECT_EQ(kinds("int f() { int x = ps::num_kv_heads * 2; return x; }"), "global_state");
}

// Only an assignment (or ++, +=) is a write. An access that hands the global where it may be
// read is a read, counted, even when it may also change it (`mutated`).
TEST(Collector, ReadsThatMayChangeAreReads) {
  auto kinds = [](const std::string& body) {
    std::string s;
    for (const auto& r : scan(body))
      s += (s.empty() ? "" : ",") + facts::str(r.kind) + (r.mutated ? " mutates" : "");
    return s;
  };
  EXPECT_EQ(kinds("void f() { ps::num_kv_heads = 8; }"), "global_write mutates");
  EXPECT_EQ(kinds("void f() { ps::cfg.stage = 2; }"), "global_write mutates");
  EXPECT_EQ(kinds("void take(int*); void f() { take(&ps::num_kv_heads); }"),
            "global_state mutates");
  EXPECT_EQ(kinds("void take(int*); void f() { take(&ps::cfg.stage); }"), "global_state mutates");
  EXPECT_EQ(kinds("void f() { ps::cfg.reset(); }"), "global_state mutates");
  EXPECT_EQ(kinds("void f() { int* p = &ps::num_kv_heads; *p = 1; }"), "global_state mutates");
  // A pointer to const, a const method, a value: reads that cannot change it.
  EXPECT_EQ(kinds("int peek(const int*); int f() { return peek(&ps::num_kv_heads); }"),
            "global_state");
  EXPECT_EQ(kinds("int f() { return ps::cfg.get(); }"), "global_state");
  EXPECT_EQ(kinds("int f() { return ps::cfg.stage; }"), "global_state");
  // An accessor's address (a callback) changes nothing.
  EXPECT_EQ(kinds("auto* cb = &ps::get_tp_size;"), "accessor");
}

// A setter (the pack's `setters`) writes the global wherever it is referenced: its call, its
// address handed on. A function of the same name elsewhere is nothing.
TEST(ReadCollector, ASetterCallIsAWrite) {
  auto writes = [](const std::string& body) {
    std::string s;
    for (const auto& r : scan(body))
      s += (s.empty() ? "" : ",") + facts::str(r.kind) + " " + r.name + " " + r.enclosing +
           (r.mutated ? " mutates" : "");
    return s;
  };
  EXPECT_EQ(writes("void f() { ps::set_num_kv_heads(8); }"),
            "global_write ps::set_num_kv_heads f mutates");
  EXPECT_EQ(writes("void g() { void (*cb)(int) = &ps::set_num_kv_heads; cb(2); }"),
            "global_write ps::set_num_kv_heads g mutates");
  EXPECT_EQ(writes("namespace other { void set_num_kv_heads(int); }"
                   "void h() { other::set_num_kv_heads(1); }"),
            "");
}

TEST(Collector, EnclosingSymbols) {
  auto reads = scan(
      "namespace m { struct A { int f() const; }; int A::f() const { return ps::get_tp_size(); } }"
      "namespace m { int g = ps::get_tp_size(); struct B { int h = ps::get_tp_size(); }; }");
  ASSERT_EQ(reads.size(), 3u);
  EXPECT_EQ(reads[0].enclosing, "m::A::f");
  EXPECT_EQ(reads[0].enclosingClass, "m::A");
  EXPECT_EQ(reads[1].enclosing, "m::g");
  EXPECT_EQ(reads[2].enclosing, "m::B::h");
  EXPECT_EQ(reads[2].enclosingClass, "m::B");
}

// A pack without `types` (the smallest pack of docs/contracts.md): what a group accessor returns is
// a group type, what a collection shim returns a collection type, through pointers and smart
// pointers.
const char* kUntypedPack = R"({
  "name": "u",
  "accessors": [
    {"function": "ps::get_tp_group", "kind": "accessor", "group": "tp", "yields": "group"},
    {"function": "ps::get_tp_size", "kind": "accessor", "group": "tp", "yields": "size"},
    {"function": "Coll::from_globals", "kind": "shim"}],
  "globals": [{"variable": "ps::num_kv_heads"}, {"variable": "ps::undeclared"}]
})";

const char* kUntypedPrelude = R"(
namespace std { template <class T> struct shared_ptr { T* operator->() const; explicit operator bool() const; }; }
namespace ps { struct PG {}; std::shared_ptr<PG> get_tp_group(); int get_tp_size(); extern int num_kv_heads; }
using ps::PG;
struct Coll { std::shared_ptr<PG> tp; static const Coll& from_globals(); };
)";

struct Untyped {
  facts::TuFacts out;
  std::string verdict;  // of the one read: "guard fix [source]"
};

Untyped scanUntyped(const std::string& body) {
  static rules::RuleSet rules(
      std::vector<rules::RulePack>{rules::parseRulePack(kUntypedPack, "u.json")});
  auto ast = clang::tooling::buildASTFromCodeWithArgs(std::string(kUntypedPrelude) + body,
                                                      {"-std=c++20"}, "/src/input.cc");
  EXPECT_TRUE(ast);
  EXPECT_FALSE(ast->getDiagnostics().hasErrorOccurred()) << body;
  Untyped u;
  DeclaredRules declared = declaredRules(ast->getASTContext(), rules);
  u.out.rulesSeen = declared.seen;
  FilePlaces places(ast->getSourceManager(), rules, "/src");
  ReadCollector collector(ast->getASTContext(), rules, places, {}, u.out, &declared.inferred);
  collector.TraverseDecl(ast->getASTContext().getTranslationUnitDecl());
  collector.finish();
  if (u.out.reads.size() != 1) {
    u.verdict = "reads: " + std::to_string(u.out.reads.size());
    return u;
  }
  const auto& r = u.out.reads[0];
  u.verdict = facts::str(r.guard) + " " + facts::str(r.hint.fix) +
              (r.hint.source.empty() ? "" : " " + r.hint.source);
  return u;
}

TEST(InferredTypes, GroupAndCollectionTypesFromWhatRulesReturn) {
  EXPECT_EQ(scanUntyped("std::shared_ptr<PG> f(std::shared_ptr<PG> pg) { "
                        "return pg ? pg : ps::get_tp_group(); }")
                .verdict,
            "fallback require");
  EXPECT_EQ(
      scanUntyped("int f(const PG* pg) { if (!pg) return ps::get_tp_size(); return 0; }").verdict,
      "fallback require");
  EXPECT_EQ(scanUntyped("int f(const Coll* c) { return c ? 1 : ps::get_tp_size(); }").verdict,
            "fallback require c->tp");
  EXPECT_EQ(scanUntyped("int f(const Coll& c) { return ps::get_tp_size(); }").verdict,
            "none substitute c.tp");
  EXPECT_EQ(scanUntyped("int f(PG* tp_group) { return ps::get_tp_size(); }").verdict,
            "none substitute tp_group");
  // Still no group: a plain pointer of another type.
  EXPECT_EQ(
      scanUntyped("int f(double* buf) { if (!buf) return ps::get_tp_size(); return 0; }").verdict,
      "none thread");
}

TEST(DeclaredRules, RecordsEachRuleTheUnitDeclares) {
  Untyped u = scanUntyped("int f() { return 0; }");
  EXPECT_EQ(u.out.rulesSeen,
            (std::vector<std::string>{"function Coll::from_globals", "function ps::get_tp_group",
                                      "function ps::get_tp_size", "variable ps::num_kv_heads"}));
}

}  // namespace
}  // namespace gridlock::frontend
