// Rule packs: loading, every validation error naming file, JSON path and problem; globs.
#include "rules/forward_declaration.h"
#include "rules/glob.h"
#include "rules/rule_pack.h"
#include "rules/rule_set.h"
#include "unit/pack_error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace gridlock::rules {
namespace {

TEST(RulePack, LoadsTheShippedPacks) {
  RulePack legacy = loadRulePack(GRIDLOCK_SOURCE_DIR "/rules/gridlock-legacy.json");
  EXPECT_EQ(legacy.name, "gridlock-legacy");
  EXPECT_EQ(legacy.accessors.size(), 51u);  // 12 groups x 4 + 2 stage tests + the shim
  EXPECT_EQ(legacy.globals.size(), 3u);
  RulePack mpi = loadRulePack(GRIDLOCK_SOURCE_DIR "/rules/mpi.json");
  ASSERT_EQ(mpi.accessors.size(), 1u);
  EXPECT_EQ(mpi.accessors[0].macro, "MPI_COMM_WORLD");
  EXPECT_EQ(mpi.accessors[0].group, "world");
  RuleSet set({legacy, mpi});
  ASSERT_NE(set.function("gridlock::parallel_state::get_tensor_model_parallel_group"), nullptr);
  EXPECT_EQ(set.function("gridlock::parallel_state::get_tensor_model_parallel_group")->group, "tp");
  EXPECT_EQ(set.function("get_tensor_model_parallel_group"), nullptr);
  ASSERT_NE(set.macro("MPI_COMM_WORLD"), nullptr);
  ASSERT_NE(set.type("MPI_Comm"), nullptr);
  EXPECT_EQ(set.type("MPI_Comm")->group, "world");
}

TEST(RulePack, ExtendsTakesRulesAndKeepsItsOwnScope) {
  RulePack p = loadRulePack(GRIDLOCK_SOURCE_DIR "/fixtures/scan/gridlock.json");
  EXPECT_EQ(p.accessors.size(), 52u);
  EXPECT_EQ(p.scope.edges, std::vector<std::string>{"train/**"});
  RuleSet set({p});
  EXPECT_EQ(set.place("train/main.cpp", true, 0), Placement::Edge);
  EXPECT_EQ(set.place("core/a.cpp", true, 0), Placement::In);
  EXPECT_EQ(set.place("/usr/include/x.h", false, 0), Placement::Out);
}

TEST(RulePack, ErrorsNameFileJsonPathAndProblem) {
  EXPECT_EQ(errorOf("{\"name\": \"x\",\n  \"accessors\": [}"),
            "p.json:2:17: invalid JSON: syntax error while parsing value - unexpected '}'; "
            "expected '[', '{', or a literal");
  EXPECT_EQ(errorOf(R"({"accessors": []})"), "p.json: /: missing required key \"name\"");
  EXPECT_EQ(errorOf(R"({"name": "x", "acessors": []})"),
            "p.json: /acessors: unknown key (allowed: $schema, name, description, extends, scope, "
            "public_headers, types, accessors, globals, setters, rewrite, python); did you mean "
            "\"accessors\"?");
  // Nested too.
  EXPECT_EQ(errorOf(R"({"name": "x", "globals": [{"varible": "v"}]})"),
            "p.json: /globals/0/varible: unknown key (allowed: variable, kind, field, type, "
            "thread); did you mean \"variable\"?");
  EXPECT_EQ(
      errorOf(
          R"({"name": "x", "accessors": [{"function": "f", "kind": "acessor", "group": "tp"}]})"),
      "p.json: /accessors/0/kind: expected one of \"accessor\", \"shim\"; got \"acessor\"");
  EXPECT_EQ(errorOf(R"({"name": "x", "accessors": [{"function": "f", "kind": "accessor"}]})"),
            "p.json: /accessors/0: an accessor needs \"group\" (the group it reads, e.g. \"tp\")");
  EXPECT_EQ(errorOf(R"({"name": "x", "accessors": [{"kind": "shim"}]})"),
            "p.json: /accessors/0: exactly one of \"function\", \"macro\", \"python\" or "
            "\"python_family\" is required");
  EXPECT_EQ(
      errorOf(
          R"({"name": "x", "accessors": [{"function": "f", "kind": "shim", "yields": "group"}]})"),
      "p.json: /accessors/0/yields: a shim yields a whole collection: expected \"collection\"");
  EXPECT_EQ(errorOf(R"({"name": "x", "globals": [{"variable": "v"}, {"variable": "v"}]})"),
            "p.json: /globals/1: duplicate rule for v");
  EXPECT_EQ(errorOf(R"({"name": "x", "scope": {"include": "**"}, "globals": [{"variable": "v"}]})"),
            "p.json: /scope/include: expected an array of strings");
  EXPECT_EQ(errorOf(R"({"name": "x"})"),
            "p.json: /: the pack has no \"accessors\" and no \"globals\": it would find nothing");
  EXPECT_EQ(
      errorOf(
          R"({"name": "x", "types": [{"type": "T", "yields": "size"}], "globals": [{"variable": "v"}]})"),
      "p.json: /types/0/yields: expected one of \"group\", \"collection\", \"state\"; got "
      "\"size\"");
  EXPECT_EQ(errorOf(R"({"name": "x", "globals": [{"variable": "v", "type": "M"}]})"),
            "p.json: /globals/0: \"type\" names the per-model state type whose \"field\" "
            "replaces the global (or that a threaded global holds): \"field\" or \"thread\" "
            "is missing");
  EXPECT_EQ(errorOf(R"({"name": "x", "globals": [{"variable": "v", "thread": {"type": "M"}}]})"),
            "p.json: /globals/0/thread/type: a threaded global is passed by reference or "
            "pointer (\"const T&\", \"T*\"), got \"M\": a copy would not see its writes");
  EXPECT_EQ(errorOf(R"({"name": "x", "globals": [{"variable": "v", "field": "kv", "type": "M",
                       "thread": {"type": "const M&"}}]})"),
            "p.json: /globals/0/thread: a global is either read through a per-model \"field\" "
            "or threaded whole, not both");
  EXPECT_EQ(errorOf(R"({"name": "x", "globals": [{"variable": "v", "thread": {"type": "M*",
                       "name": "a b"}}]})"),
            "p.json: /globals/0/thread/name: expected a parameter name (an identifier), got "
            "\"a b\"");
  EXPECT_EQ(errorOf(R"({"name": "x", "globals": [{"variable": "v", "thread": {"type": "M*",
                       "size": 1}}]})"),
            "p.json: /globals/0/thread/size: unknown key (allowed: type, name, edge, include, "
            "position, forward_declaration, hoist, store, member)");
  // The edge defaults to the variable, whose name the parameter takes: `const M& v = v;`.
  EXPECT_EQ(errorOf(R"({"name": "x", "globals": [{"variable": "v", "thread": {"type": "M*",
                       "hoist": true}}]})"),
            "p.json: /globals/0/thread/hoist: the edge is the parameter's own name (v): a local "
            "of that name would initialise itself; name another edge or leave out hoist");
  EXPECT_EQ(errorOf(R"({"name": "x", "globals": [{"variable": "v"}], "rewrite": {"thread":
                       {"type": "M*", "name": "m", "yields": "collection", "edge": "e",
                        "hoist": "yes"}}})"),
            "p.json: /rewrite/thread/hoist: expected true or false");
  EXPECT_EQ(errorOf(R"({"name": "x", "globals": [{"variable": "v", "thread": {"type": "M*",
                       "include": "m.h", "forward_declaration": "union M"}}]})"),
            "p.json: /globals/0/thread/forward_declaration: expected \"class NAME\" or \"struct "
            "NAME\" with NAME a qualified identifier, got \"union M\"");
  EXPECT_EQ(errorOf(R"({"name": "x", "globals": [{"variable": "v"}], "rewrite": {"thread":
                       {"type": "const ns::M&", "name": "m", "yields": "collection", "edge": "e",
                        "forward_declaration": "class ns::M"}}})"),
            "p.json: /rewrite/thread/forward_declaration: a forward declaration stands in for "
            "\"include\", which this rule lacks");
  EXPECT_EQ(errorOf(R"({"name": "x", "globals": [{"variable": "v"}], "rewrite": {"thread":
                       {"type": "const ns::M&", "name": "m", "yields": "collection", "edge": "e",
                        "include": "m.h", "forward_declaration": "class ns::M<int>"}}})"),
            "p.json: /rewrite/thread/forward_declaration: expected \"class NAME\" or \"struct "
            "NAME\" with NAME a qualified identifier, got \"class ns::M<int>\"");
  EXPECT_EQ(errorOf(R"({"name": "x", "globals": [{"variable": "v", "field": "m.kv"}]})"),
            "p.json: /globals/0/field: expected a field name (an identifier), got \"m.kv\"");
}

TEST(RulePack, ForwardDeclarationsAreSpelledAsCode) {
  RulePack legacy = loadRulePack(GRIDLOCK_SOURCE_DIR "/rules/gridlock-legacy.json");
  EXPECT_EQ(legacy.rewrite.thread.forwardDeclaration, "class gridlock::ProcessGroupCollection");
  EXPECT_EQ(forwardDeclarationLines("class gridlock::ProcessGroupCollection"),
            "namespace gridlock {\nclass ProcessGroupCollection;\n}  // namespace gridlock\n");
  EXPECT_EQ(forwardDeclarationLines("struct a::b::Env"),
            "namespace a::b {\nstruct Env;\n}  // namespace a::b\n");
  EXPECT_EQ(forwardDeclarationLines("struct Env"), "struct Env;\n");
  for (const char* bad : {"Env", "class", "class ", "class a::", "class ::a", "class 1a",
                          "enum class E", "class a b"})
    EXPECT_EQ(forwardDeclarationLines(bad), "") << bad;
}

TEST(RulePack, GlobalsMapToPerModelFields) {
  RulePack legacy = loadRulePack(GRIDLOCK_SOURCE_DIR "/rules/gridlock-legacy.json");
  RuleSet set({legacy});
  const GlobalRule* kv = set.global("gridlock::tp_shard::num_kv_heads");
  ASSERT_NE(kv, nullptr);
  EXPECT_EQ(kv->field, "num_kv_heads");
  EXPECT_EQ(kv->type, "gridlock::ShardingMetadata");
  EXPECT_TRUE(set.collectionHolds("const gridlock::ProcessGroupCollection&", "expt_tp"));
  EXPECT_FALSE(set.collectionHolds("const gridlock::ProcessGroupCollection&", "world"));
  EXPECT_TRUE(set.collectionHolds("SomethingElse", "world"));  // not a listed collection
  ASSERT_NE(set.type("gridlock::ShardingMetadata"), nullptr);
  EXPECT_EQ(set.type("gridlock::ShardingMetadata")->yields, facts::Yields::State);
}

// rewrite.env: an object holding the groups behind methods; it implies the type rule, the
// thread parameter and the collapse local.
TEST(RulePack, EnvObjectDescribesItsMethods) {
  RulePack p = loadRulePack(GRIDLOCK_SOURCE_DIR "/fixtures/rewrite/env_object/gridlock.json");
  const EnvRule& e = p.rewrite.env;
  EXPECT_EQ(e.type, "GlobalEnv");
  EXPECT_EQ(e.parameter, "const GlobalEnv &env");
  EXPECT_EQ(e.edge, "GlobalEnv::Instance()");
  ASSERT_EQ(e.methods.size(), 2u);
  EXPECT_EQ(e.methods.at("tp").at(facts::Yields::Size), "{env}.tensor_parallel_size()");
  EXPECT_EQ(e.methods.at("dp").at(facts::Yields::Group), "{env}.dp_group()");
  EXPECT_EQ(p.rewrite.thread.type, "const GlobalEnv &");
  EXPECT_EQ(p.rewrite.thread.name, "env");
  EXPECT_EQ(p.rewrite.thread.yields, facts::Yields::Collection);
  EXPECT_TRUE(p.rewrite.thread.env);
  EXPECT_FALSE(p.rewrite.thread.pointer);
  EXPECT_EQ(p.rewrite.thread.edge, "GlobalEnv::Instance()");
  EXPECT_EQ(p.rewrite.thread.include, "env.h");
  // Store by default, in a member named after the parameter.
  EXPECT_TRUE(p.rewrite.thread.store);
  EXPECT_EQ(p.rewrite.thread.member, "env_");
  EXPECT_EQ(p.rewrite.collapse.lookup, "GlobalEnv::Instance()");
  EXPECT_EQ(p.rewrite.collapse.type, "const GlobalEnv &");
  EXPECT_EQ(p.rewrite.collapse.name, "env");
  RuleSet set({p});
  const TypeRule* t = set.type("GlobalEnv");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->yields, facts::Yields::Collection);
  EXPECT_TRUE(t->env);
  EXPECT_EQ(t->groups, (std::vector<std::string>{"dp", "tp"}));
  EXPECT_TRUE(set.collectionHolds("const GlobalEnv &", "tp"));
  EXPECT_FALSE(set.collectionHolds("const GlobalEnv &", "pp"));
  // A pointer parameter reaches the methods with `->`.
  RulePack ptr = parseRulePack(
      R"js({"name": "x", "accessors": [{"function": "f", "kind": "accessor", "group": "tp",
                                     "yields": "group"}],
          "rewrite": {"env": {"type": "E", "parameter": "E *e", "edge": "&E::get()",
                              "store": false, "member": "m_env",
                              "methods": {"tp": {"group": "{env}.tp()"}}}}})js",
      "p.json");
  EXPECT_EQ(ptr.rewrite.thread.type, "E *");
  EXPECT_EQ(ptr.rewrite.thread.name, "e");
  EXPECT_TRUE(ptr.rewrite.thread.pointer);
  EXPECT_FALSE(ptr.rewrite.thread.store);
  EXPECT_EQ(ptr.rewrite.thread.member, "m_env");
}

// accessors[].env: a value of the env no group method gives (`yields: value`), spelled by the
// accessor's own method; the env then answers for the accessor's group too.
TEST(RulePack, AccessorsNameTheirOwnMethodOfTheEnv) {
  RulePack p = loadRulePack(GRIDLOCK_SOURCE_DIR "/fixtures/rewrite/env_values/gridlock.json");
  ASSERT_EQ(p.accessors.size(), 5u);
  EXPECT_EQ(p.accessors[2].function, "GetSequenceParallelEnabled");
  EXPECT_EQ(p.accessors[2].yields, facts::Yields::Value);
  EXPECT_EQ(p.accessors[2].env, "{env}.sequence_parallel_enabled()");
  EXPECT_EQ(p.accessors[3].env, "{env}.layout().RankOf({0}, {1})");
  EXPECT_EQ(p.accessors[4].yields, facts::Yields::Value);
  EXPECT_EQ(p.accessors[4].env, "");
  RuleSet set({p});
  const TypeRule* t = set.type("GlobalEnv");
  ASSERT_NE(t, nullptr);
  // tp from methods; sp and world from the accessors' own methods; pp has none.
  EXPECT_EQ(t->groups, (std::vector<std::string>{"tp", "sp", "world"}));
  EXPECT_TRUE(set.collectionHolds("const GlobalEnv &", "sp"));
  EXPECT_FALSE(set.collectionHolds("const GlobalEnv &", "pp"));

  const std::string env =
      R"js("rewrite": {"env": {"type": "E", "parameter": "const E &e", "edge": "E::get()", )js"
      R"js("methods": {"tp": {"size": "{env}.tp_size()"}}}})js";
  EXPECT_EQ(errorOf(R"js({"name": "x", "accessors": [{"function": "f", "kind": "accessor", )js"
                    R"js("group": "sp", "yields": "value", "env": "enabled()"}], )js" +
                    env + "}"),
            "p.json: /accessors/0/env: the template must name the env as {env}");
  EXPECT_EQ(errorOf(R"js({"name": "x", "accessors": [{"function": "f", "kind": "shim", )js"
                    R"js("env": "{env}.self()"}], )js" +
                    env + "}"),
            "p.json: /accessors/0/env: a shim yields the env itself: it has no method to name");
  EXPECT_EQ(errorOf(R"js({"name": "x", "accessors": [{"function": "f", "kind": "accessor", )js"
                    R"js("group": "sp", "yields": "value", "env": "{env}.on()"}]})js"),
            "p.json: /accessors/0/env: names a method of the env, but the pack has no "
            "rewrite.env (nor a pack it extends)");
  EXPECT_EQ(errorOf(R"js({"name": "x", "accessors": [{"function": "f", "kind": "accessor", )js"
                    R"js("group": "sp", "yields": "flag"}]})js"),
            "p.json: /accessors/0/yields: expected one of \"group\", \"size\", \"rank\", "
            "\"src_rank\", \"collection\", \"value\"; got \"flag\"");
}

TEST(RulePack, EnvErrorsNameTheKey) {
  auto env = [](const std::string& body) {
    return errorOf(R"js({"name": "x", "accessors": [{"function": "f", "kind": "accessor", )js"
                   R"js("group": "tp"}], "rewrite": {"env": )js" +
                   body + "}}");
  };
  const std::string methods = R"js("methods": {"tp": {"size": "{env}.tp_size()"}})js";
  EXPECT_EQ(env(R"js({"type": "E", "edge": "E::get()", )js" + methods + "}"),
            "p.json: /rewrite/env: missing required key \"parameter\"");
  EXPECT_EQ(env(R"js({"type": "E", "parameter": "const E &e", )js" + methods + "}"),
            "p.json: /rewrite/env: missing required key \"edge\"");
  EXPECT_EQ(env(R"js({"type": "E", "parameter": "const E &e", "edge": "E::get()"})js"),
            "p.json: /rewrite/env: missing required key \"methods\"");
  EXPECT_EQ(
      env(R"js({"type": "E", "parameter": "const E &", "edge": "E::get()", )js" + methods + "}"),
      "p.json: /rewrite/env/parameter: expected a parameter declaration (\"const GlobalEnv "
      "&env\"), got \"const E &\"");
  EXPECT_EQ(env(R"js({"type": "E", "parameter": "E e", "edge": "E::get()", )js" + methods + "}"),
            "p.json: /rewrite/env/parameter: the env is passed by reference or pointer (\"const T "
            "&env\", \"T *env\"), got \"E e\": a copy would not see its changes");
  EXPECT_EQ(
      env(R"js({"type": "E", "parameter": "const E &e", "edge": "E::get()", "methods": {}})js"),
      "p.json: /rewrite/env/methods: expected an object naming each group the env holds, e.g. "
      "{\"tp\": {\"size\": \"{env}.tensor_parallel_size()\"}}");
  EXPECT_EQ(env(R"js({"type": "E", "parameter": "const E &e", "edge": "E::get()", )js"
                R"js("methods": {"tp": {"size": "tp_size()"}}})js"),
            "p.json: /rewrite/env/methods/tp/size: the template must name the env as {env}");
  EXPECT_EQ(env(R"js({"type": "E", "parameter": "const E &e", "edge": "E::get()", )js"
                R"js("methods": {"tp": {"world": "{env}.w()"}}})js"),
            "p.json: /rewrite/env/methods/tp/world: unknown key (allowed: group, size, rank, "
            "src_rank)");
  EXPECT_EQ(env(R"js({"type": "E", "parameter": "const E &e", "edge": "E::get()", )js"
                R"js("methods": {"tp": {}}})js"),
            "p.json: /rewrite/env/methods/tp: names no method (group, size, rank, src_rank)");
  EXPECT_EQ(env(R"js({"type": "E", "parameter": "const E &e", "edge": "E::get()", )js"
                R"js("group": "tp", )js" +
                methods + "}"),
            "p.json: /rewrite/env/group: unknown key (allowed: type, parameter, edge, include, "
            "forward_declaration, hoist, store, member, methods)");
  // Store's member: an identifier, not the parameter's own name; store a boolean.
  EXPECT_EQ(env(R"js({"type": "E", "parameter": "const E &e", "edge": "E::get()", )js"
                R"js("member": "e", )js" +
                methods + "}"),
            "p.json: /rewrite/env/member: the member is the parameter's own name (e): the "
            "constructor's initializer would read the parameter, not the member");
  EXPECT_EQ(env(R"js({"type": "E", "parameter": "const E &e", "edge": "E::get()", )js"
                R"js("member": "m-e", )js" +
                methods + "}"),
            "p.json: /rewrite/env/member: expected a member name (an identifier), got \"m-e\"");
  EXPECT_EQ(env(R"js({"type": "E", "parameter": "const E &e", "edge": "E::get()", )js"
                R"js("store": 1, )js" +
                methods + "}"),
            "p.json: /rewrite/env/store: expected true or false");
  EXPECT_EQ(env(R"js({"type": "E", "parameter": "const E &e", "edge": "E::get()", )js"
                R"js("forward_declaration": "class E", )js" +
                methods + "}"),
            "p.json: /rewrite/env/forward_declaration: a forward declaration stands in for "
            "\"include\", which this rule lacks");
  EXPECT_EQ(env(R"js({"type": "E", "parameter": "const E &e", "edge": "E::get()", )js"
                R"js("include": "e.h", "forward_declaration": "E", )js" +
                methods + "}"),
            "p.json: /rewrite/env/forward_declaration: expected \"class NAME\" or \"struct NAME\" "
            "with NAME a qualified identifier, got \"E\"");
  EXPECT_EQ(errorOf(R"js({"name": "x", "accessors": [{"function": "f", "kind": "accessor", )js"
                    R"js("group": "tp"}], "rewrite": {"thread": {"type": "T", "name": "t", )js"
                    R"js("group": "tp", "edge": "W"}, "env": {"type": "E", "parameter": "E &e", )js"
                    R"js("edge": "E::get()", )js" +
                    methods + "}}}"),
            "p.json: /rewrite/thread: rewrite.env threads and collapses the env itself (its "
            "\"parameter\" and \"edge\"): leave out rewrite.thread");
  EXPECT_EQ(errorOf(R"js({"name": "x", "types": [{"type": "E", "yields": "collection"}], )js"
                    R"js("accessors": [{"function": "f", "kind": "accessor", "group": "tp"}], )js"
                    R"js("rewrite": {"env": {"type": "E", "parameter": "E &e", )js"
                    R"js("edge": "E::get()", )js" +
                    methods + "}}}"),
            "p.json: /types/0: E is rewrite.env's type, which says what it holds: leave it out of "
            "types");
}

TEST(RulePack, MissingFileAndDuplicateAcrossPacks) {
  try {
    loadRulePack("/nonexistent/pack.json");
    FAIL();
  } catch (const RuleError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/pack.json: cannot read rule pack");
  }
  RulePack a = parseRulePack(R"({"name": "a", "globals": [{"variable": "v"}]})", "a.json");
  RulePack b = parseRulePack(R"({"name": "b", "globals": [{"variable": "v"}]})", "b.json");
  try {
    RuleSet set({a, b});
    FAIL();
  } catch (const RuleError& e) {
    EXPECT_STREQ(e.what(), "b.json: v is already defined by another pack");
  }
}

TEST(Glob, SegmentsAndDoubleStar) {
  EXPECT_TRUE(globMatch("**", "a/b/c.cpp"));
  EXPECT_TRUE(globMatch("src/*.cpp", "src/a.cpp"));
  EXPECT_FALSE(globMatch("src/*.cpp", "src/x/a.cpp"));
  EXPECT_TRUE(globMatch("src/**/*.cpp", "src/x/y/a.cpp"));
  EXPECT_TRUE(globMatch("src/**/*.cpp", "src/a.cpp"));
  EXPECT_TRUE(globMatch("**/*.h", "a.h"));
  EXPECT_FALSE(globMatch("train/**", "core/train/a.cpp"));
  EXPECT_TRUE(globMatch("build*/**", "build-ci/x.cpp"));
  EXPECT_TRUE(globMatch("a?c", "abc"));
  EXPECT_FALSE(globMatch("a?c", "a/c"));
}

}  // namespace
}  // namespace gridlock::rules

namespace gridlock::rules {
namespace {

// One line for each pack entry no scanned unit declared and each include glob no scanned file
// matched; the keys are those the frontend records in TuFacts::rulesSeen.
TEST(RuleSet, UnmatchedEntriesAndGlobs) {
  RuleSet set({parseRulePack(R"({"name": "p",
    "scope": {"include": ["src/**", "lib/**"], "exclude": ["nothing/**"]},
    "types": [{"type": "ps::PG", "yields": "group"}, {"type": "ps::Gone", "yields": "group"}],
    "accessors": [
      {"function": "ps::get_tp", "kind": "accessor", "group": "tp", "yields": "group"},
      {"function": "ps::get_dp", "kind": "accessor", "group": "dp", "yields": "group"},
      {"macro": "WORLD", "kind": "accessor", "group": "world", "yields": "group"}],
    "globals": [{"variable": "ps::heads"}]})",
                             "p.json")});
  const RulePack& p = set.packs()[0];
  EXPECT_EQ(RuleSet::seenKey(p.accessors[0]), "function ps::get_tp");
  EXPECT_EQ(RuleSet::seenKey(p.accessors[2]), "macro WORLD");
  EXPECT_EQ(RuleSet::seenKey(p.globals[0]), "variable ps::heads");
  EXPECT_EQ(RuleSet::seenKey(p.types[0]), "type ps::PG");
  std::set<std::string> seen = {"function ps::get_tp", "type ps::PG", "variable ps::heads"};
  std::vector<Unmatched> found = set.unmatched(seen, {"src/a.cpp", "src/a.h"}, 3);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].pack, "p");
  EXPECT_EQ(found[0].entries, 8u);  // 3 accessors, 1 global, 2 types, 2 include globs
  EXPECT_EQ(found[0].lines,
            (std::vector<std::string>{
                "rule 'ps::get_dp' (pack p) matched no declaration in 3 translation units",
                "rule 'WORLD' (pack p) matched no macro definition in 3 translation units",
                "type rule 'ps::Gone' (pack p) matched no declaration in 3 translation units",
                "scope include 'lib/**' (pack p) matched no file in 3 translation units"}));
  seen.insert({"function ps::get_dp", "macro WORLD", "type ps::Gone"});
  EXPECT_TRUE(set.unmatched(seen, {"src/a.cpp", "lib/b.h"}, 1).empty());
  EXPECT_EQ(set.unmatched({}, {"src/a.cpp", "lib/b.h"}, 1).front().lines.front(),
            "rule 'ps::get_tp' (pack p) matched no declaration in 1 translation unit");
}

}  // namespace
}  // namespace gridlock::rules
