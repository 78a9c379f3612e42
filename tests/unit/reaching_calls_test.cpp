// Which calls and sites a unit keeps: only those whose callee can reach what the packs scan.
#include "frontend/reaching_calls.h"
#include "facts/facts.h"
#include "frontend/file_places.h"
#include "frontend/program_collector.h"
#include "frontend/read_collector.h"
#include "rules/rule_set.h"

#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/Tooling.h>
#include <gtest/gtest.h>

#include <map>
#include <set>

namespace gridlock::frontend {
namespace {

using Names = std::set<std::string>;

TEST(ReachingUsrs, SeedsAndEveryTransitiveCaller) {
  // c -> b -> a (seed); d -> e reaches nothing; f calls both sides.
  std::vector<std::pair<std::string, std::string>> edges{
      {"b", "a"}, {"c", "b"}, {"d", "e"}, {"f", "d"}, {"f", "c"}};
  EXPECT_EQ(reachingUsrs({"a"}, edges), (Names{"a", "b", "c", "f"}));
  EXPECT_EQ(reachingUsrs({}, edges), Names{});
  EXPECT_EQ(reachingUsrs({"e"}, edges), (Names{"d", "e", "f"}));
}

facts::CallFact callTo(const std::string& callee, unsigned rparen) {
  facts::CallFact c;
  c.calleeUsr = callee;
  c.file = "a.cc";
  c.rparen = rparen;
  c.sources.push_back(facts::SourceFact{});
  return c;
}

TEST(KeepReachingCalls, DropsTheRestKeepsDependentPlacesWithoutSources) {
  facts::TuFacts tu;
  tu.calls = {callTo("old", 1), callTo("in", 2), callTo("out", 3), callTo("out", 4)};
  tu.dependentCalls.push_back({"g", "a.cc", 1, 4});  // a template's call resolved at offset 4
  facts::SiteFact s1, s2;
  s1.calleeUsr = "in";
  s2.calleeUsr = "out";
  tu.sites = {s2, s1, s2};
  // The first call and the first site came from an earlier walk: left as they are.
  keepReachingCalls(tu, FactsMark{1, 1}, {"in"});
  ASSERT_EQ(tu.calls.size(), 3u);
  EXPECT_EQ(tu.calls[0].calleeUsr, "old");
  EXPECT_EQ(tu.calls[1].calleeUsr, "in");
  EXPECT_EQ(tu.calls[1].sources.size(), 1u);
  EXPECT_EQ(tu.calls[2].calleeUsr, "out");
  EXPECT_EQ(tu.calls[2].rparen, 4u);
  EXPECT_TRUE(tu.calls[2].sources.empty());
  ASSERT_EQ(tu.sites.size(), 2u);
  EXPECT_EQ(tu.sites[0].calleeUsr, "out");
  EXPECT_EQ(tu.sites[1].calleeUsr, "in");
}

facts::FunctionFact function(const std::string& usr, const std::string& cls = "") {
  facts::FunctionFact f;
  f.usr = usr;
  f.classUsr = cls;
  return f;
}

facts::ClassFact cls(const std::string& usr, std::vector<std::string> bases = {}) {
  facts::ClassFact c;
  c.usr = usr;
  c.bases = std::move(bases);
  return c;
}

TEST(KeepReachingDecls, FunctionsNamedOrReachingClassesTheirsAndBelowWhatIsScanned) {
  facts::TuFacts tu;
  tu.functions = {function("old"), function("reach", "M"), function("named"), function("caller"),
                  function("drop", "N")};
  facts::ParamListFact p1, p2;
  p1.usr = "reach";
  p2.usr = "drop";
  tu.paramLists = {p1, p2};
  facts::CallFact call = callTo("x", 1);
  call.callerUsr = "caller";
  tu.calls = {call};
  facts::SiteFact site;
  site.classUsr = "S";
  tu.sites = {site};
  // D2 derives from D1, listed before it: the walk down the hierarchy goes on until it settles.
  tu.classes = {cls("old0"), cls("D2", {"D1"}), cls("T"),        cls("D1", {"T"}), cls("M"),
                cls("N"),    cls("S"),          cls("X", {"Y"}), cls("Y")};
  keepReachingDecls(tu, FactsMark{0, 0, 1, 1, 0}, {"reach"}, {"named"}, {"T"});
  Names functions, classes, lists;
  for (const auto& f : tu.functions) functions.insert(f.usr);
  for (const auto& c : tu.classes) classes.insert(c.usr);
  for (const auto& l : tu.paramLists) lists.insert(l.usr);
  EXPECT_EQ(functions, (Names{"old", "reach", "named", "caller"}));
  EXPECT_EQ(lists, Names{"reach"});
  EXPECT_EQ(classes, (Names{"old0", "D2", "T", "D1", "M", "S"}));
  EXPECT_EQ(tu.classes[1].usr, "D2");  // in their order
}

// A library under the root that no pack scans (lib/), and a scanned file (app/).
const char* kPack = R"({
  "name": "t",
  "scope": {"include": ["app/**"]},
  "types": [{"type": "ps::PG", "yields": "group"}],
  "accessors": [{"function": "ps::get_tp_group", "kind": "accessor", "group": "tp",
                 "yields": "group"}]
})";

const char* kLibrary = R"(
namespace ps { struct PG {}; PG* get_tp_group(); }
namespace lib {
inline int leaf(int x) { return x + 1; }
inline int chain(int x) { return leaf(x) * 2; }
int external(int x);
struct Base { virtual int v(int) { return 0; } };
inline int viaVirtual(Base& b, int k) { return b.v(k); }
inline ps::PG* grab(ps::PG* pg = nullptr) { return pg ? pg : ps::get_tp_group(); }
inline ps::PG* grabTwice(int) { return grab(grab()); }
inline int takes(ps::PG* pg, int k) { return pg ? k : 0; }
struct Plain { Plain(int k) : n(leaf(k)) {} int n; };
struct Init { Init(int k) : m(k) {} int m; int n = leaf(1); };
inline int unused(int x) { return x; }
int declaredOnly(int x);
struct Unused { int f() { return 1; } };
template <class T> struct Box { template <class U> U get(U u) { return u; } T t{}; };
inline int boxed() { return Box<int>{}.get(1); }
// Box<long>::get<long> is declared, never defined: named only where nothing runs it.
inline int typed() { return sizeof(Box<long>{}.get(2L)); }
}  // namespace lib
)";

const char* kApp = R"(
#include "../lib/lib.h"
int appFn(int x);
template <class T> struct AppBox { template <class U> U get(U u) { return u; } };
int appDefined(int x) { return x; }
int user(lib::Base& b) {
  lib::leaf(1);
  lib::chain(2);
  lib::external(3);
  lib::viaVirtual(b, 4);
  lib::grab();
  lib::grabTwice(5);
  lib::takes(nullptr, 6);
  lib::Plain p(7);
  lib::Init i(8);
  lib::boxed();
  lib::typed();
  AppBox<int>{}.get(1);
  appDefined(9);
  return appFn(10);
}
)";

// The unit's facts; `rewriteFacts` as FrontendOptions has it.
facts::TuFacts collect(bool rewriteFacts = true) {
  static rules::RuleSet rules(std::vector<rules::RulePack>{rules::parseRulePack(kPack, "t.json")});
  auto ast = clang::tooling::buildASTFromCodeWithArgs(
      kApp, {"-std=c++20"}, "/src/app/input.cc", "gridlock-test",
      std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), {{"/src/lib/lib.h", kLibrary}});
  EXPECT_TRUE(ast);
  EXPECT_FALSE(ast->getDiagnostics().hasErrorOccurred());
  facts::TuFacts out;
  FilePlaces places(ast->getSourceManager(), rules, "/src");
  ReadCollector reads(ast->getASTContext(), rules, places, {}, out);
  reads.TraverseDecl(ast->getASTContext().getTranslationUnitDecl());
  reads.finish();
  ProgramCollector program(ast->getASTContext(), places, rules, out, rewriteFacts);
  program.TraverseDecl(ast->getASTContext().getTranslationUnitDecl());
  program.finish();
  return out;
}

// The simple names of the callees of what `user` calls and constructs.
std::pair<Names, Names> callees() {
  facts::TuFacts out = collect();
  auto simple = [](const std::string& usr) {
    size_t at = usr.rfind("@F@");
    if (at == std::string::npos) {  // a function template of one type parameter: @FT@>1#Tname
      at = usr.rfind("@FT@>1#T");
      if (at == std::string::npos) return usr;
      at += 5;
    }
    std::string name = usr.substr(at + 3);
    return name.substr(0, name.find('#'));
  };
  Names calls, sites;
  for (const auto& c : out.calls)
    if (c.file == "app/input.cc") calls.insert(simple(c.calleeUsr));
  for (const auto& s : out.sites)
    if (s.file == "app/input.cc") sites.insert(simple(s.calleeUsr));
  return {calls, sites};
}

TEST(ReachingCalls, KeepsWhatCanReachTheScannedCodeOnly) {
  auto [calls, sites] = callees();
  // Dropped: leaf and chain, whole in the unit, call only each other; Plain's constructor
  // too. Kept: external (no body here), viaVirtual (calls a virtual), grab (its fallback reads),
  // grabTwice (calls grab), takes (takes a group), Init (member initializers), and the
  // functions the scanned file declares (AppBox's get too).
  EXPECT_EQ(calls, (Names{"external", "viaVirtual", "grab", "grabTwice", "takes", "appDefined",
                          "appFn", "get"}));
  EXPECT_EQ(sites, (Names{"external", "viaVirtual", "grab", "grabTwice", "takes", "Init",
                          "appDefined", "appFn", "get"}));
}

TEST(ReachingCalls, KeepsTheFunctionsAndClassesWhatIsKeptNames) {
  facts::TuFacts out = collect();
  Names functions, classes;
  for (const auto& f : out.functions) functions.insert(f.name);
  for (const auto& c : out.classes) classes.insert(c.name);
  // Dropped: what only calls within the library (leaf, chain, Plain's constructor, boxed and
  // the member template it calls, typed, whose Box<long>::get is not run and whose template's
  // body is here), what nothing calls (unused, declaredOnly, Unused::f), and
  // the member template again as a member of the instantiated Box<int>. Kept: the callees that
  // may reach (external, the virtual v, grab, takes, Init's constructor), their callers
  // (viaVirtual, grabTwice), and what the scanned file declares.
  EXPECT_EQ(functions, (Names{"lib::external", "lib::Base::v", "lib::viaVirtual", "lib::grab",
                              "lib::grabTwice", "lib::takes", "lib::Init::Init", "appFn",
                              "appDefined", "user", "ps::get_tp_group", "AppBox::get"}));
  // Base, Init: classes of kept functions and constructions; AppBox and its instantiation:
  // declared in the scanned file. PG is declared where no pack scans and named by nothing
  // kept: dropped with Plain, Unused and Box.
  EXPECT_EQ(classes, (Names{"lib::Base", "lib::Init", "AppBox", "AppBox<int>"}));
  // The scanned file's member template once, as the template declares it: not again as a
  // member of AppBox<int>, which nothing names (calls name the template's).
  size_t gets = 0;
  for (const auto& f : out.functions)
    gets += f.name.size() >= 5 && f.name.compare(f.name.size() - 5, 5, "::get") == 0;
  EXPECT_EQ(gets, 1u);
}

TEST(ReachingCalls, DigestsOfTheFilesItHoldsFactsOfOnlyForTheRewriter) {
  // The rewriter refuses to edit a file changed since its scan: it needs the digest of each
  // file a kept function, call or site is in (the library's kept functions and the scanned
  // file). A scan edits nothing; the scanned file holds no read, so it has none.
  using Digests = std::map<std::string, std::string>;
  facts::TuFacts plan = collect(/*rewriteFacts=*/true);
  Names files;
  for (const auto& [file, digest] : plan.digests) {
    files.insert(file);
    EXPECT_EQ(digest.size(), 32u) << file;
  }
  EXPECT_EQ(files, (Names{"app/input.cc", "lib/lib.h"}));
  EXPECT_EQ(collect(/*rewriteFacts=*/false).digests, Digests{});
}

}  // namespace
}  // namespace gridlock::frontend
