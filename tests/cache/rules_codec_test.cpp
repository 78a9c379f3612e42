// The rule-pack codec: a pack with every field set comes back field for field, a field added to
// a rule struct without the codec learning it fails here, and the digest that keys the facts
// cache follows every rule but not the path a pack was loaded from.
#include "rules/rules_codec.h"
#include "cache/deep_compare.h"

#include <gtest/gtest.h>

namespace gridlock::test {
namespace {

using namespace gridlock::rules;
using facts::Yields;

RulePack samplePack() {
  RulePack p;
  p.name = "minitron";
  p.path = "/src/rules/minitron.json";
  p.scope = {{"core/**"}, {"third_party/**"}, {"train/**"}};
  AccessorRule a;
  a.function = "gridlock::parallel_state::get_tensor_model_parallel_group";
  a.macro = "TP_GROUP";
  a.kind = facts::ReadKind::Shim;
  a.group = "tp";
  a.yields = Yields::Rank;
  a.pack = 3;
  a.spell = "{g}->rank()";
  a.env = "{env}.tp_rank()";
  p.accessors = {a};
  GlobalRule g;
  g.variable = "gridlock::tp_shard::num_kv_heads";
  g.field = "num_kv_heads";
  g.type = "minitron::Meta";
  g.pack = 2;
  // Every field set, as the sample must (a parser would not take field and thread together).
  g.thread = {"const minitron::Meta&",
              "meta",
              Yields::State,
              "minitron::Meta",
              true,
              "minitron::Meta::global()",
              "minitron/meta.h",
              facts::ThreadPosition::Last,
              "struct minitron::Meta",
              true,
              true,
              false,
              "meta_m"};
  GlobalRule state;
  state.variable = "multi_gpu_config";
  state.type = "MultiGpuConfig";
  state.thread.type = "const MultiGpuConfig&";
  state.thread.name = "multi_gpu_config";
  state.thread.yields = Yields::State;
  state.thread.group = "MultiGpuConfig";
  state.thread.edge = "multi_gpu_config";
  state.thread.include = "llmc/zero.cuh";
  state.thread.position = facts::ThreadPosition::Last;
  state.thread.pointer = true;
  p.globals = {g, state};
  p.types = {{"gridlock::ProcessGroupCollection", Yields::Collection, "world", {"tp", "pp"}, true}};
  p.publicHeaders = {"include/**"};
  p.rewrite.spell = {{Yields::Size, "{g}->size()"}};
  p.rewrite.spellInclude = "gridlock/process_group.h";
  p.rewrite.requireSpell = "require<{type}>(\"{message}\")";
  p.rewrite.requireInclude = "gridlock/require.h";
  p.rewrite.thread = {"gridlock::ProcessGroup*",
                      "group",
                      Yields::Collection,
                      "tp",
                      true,
                      "MPI_COMM_WORLD",
                      "gridlock/group.h",
                      facts::ThreadPosition::Last,
                      "class gridlock::ProcessGroup",
                      true,
                      true,
                      false,
                      "group_m"};
  p.rewrite.collapse = {"gridlock::use_mpu()", "const auto&", "groups", "gridlock/pgc.h"};
  PythonAccessorRule named{"megatron.core.parallel_state.get_tensor_model_parallel_group",
                           {"m", "get_", {{"_rank", Yields::Rank}}, {"get_x_rank"}, {{"tp", "t"}}},
                           facts::ReadKind::Shim,
                           "tp",
                           Yields::SrcRank,
                           4,
                           "megatron.core.parallel_state._TP",
                           "meta"};
  p.pythonAccessors = {named};
  p.pythonGlobals = {
      {"megatron.core.parallel_state._GROUP", "megatron.core.parallel_state", {"_LOCK"}, 5}};
  p.setters = {{"ps::set_num_kv_heads", "pkg.ps.set_num_kv_heads", "ps::num_kv_heads", 6}};
  p.python = {true, true, false};
  p.rewrite.env = {"GlobalEnv",
                   "const GlobalEnv &env",
                   "GlobalEnv::Instance()",
                   "env.h",
                   "class GlobalEnv",
                   true,
                   false,
                   "env_m",
                   {{"tp", {{Yields::Group, "{env}.tp_group()"}, {Yields::Size, "{env}.tp()"}}}}};
  p.rewrite.python = {{"pg_collection"},
                      "{group}_group",
                      {{Yields::Size, "{g}.size()"}},
                      {{"mcore.state", "sharding"}},
                      {{"tp", "tensor"}},
                      {"check_initialized"},
                      {{"dp", {{"with_context_parallel=True", "dp_cp_gtp_remat"}}}},
                      "RuntimeError",
                      {"mcore/api/**"},
                      true,
                      false,
                      true,
                      true,
                      {"cp"},
                      {{"mcore.spec_utils.ModuleSpec"},
                       {"mcore.spec_utils.build_module"},
                       {"mcore.spec_utils.get_module"},
                       {"*Submodules"}},
                      {{"mcore.tp_shard",
                        {"mcore.tp_shard.ShardMeta",
                         {{"num_kv_heads", "Optional[int]"}},
                         "after_imports",
                         "tp_meta",
                         "meta",
                         "shard_meta",
                         "call",
                         "mcore.tp_shard.ShardMeta.from_config",
                         "model_config",
                         {"tp_grain_size"},
                         true,
                         true,
                         {{"mcore.layer", "_layer_meta"}}}}}};
  return p;
}

TEST(RulesCodec, FieldCountsMatchTheCodec) {
  // A field added to one of these structs must be written and read by rules_codec.cpp and set
  // in samplePack() above; then update its count here.
  EXPECT_EQ(fieldCount<RulePack>(), 12u);
  EXPECT_EQ(fieldCount<PythonFamily>(), 5u);
  EXPECT_EQ(fieldCount<PythonAccessorRule>(), 8u);
  EXPECT_EQ(fieldCount<SetterRule>(), 4u);
  EXPECT_EQ(fieldCount<PythonStateRule>(), 13u);
  EXPECT_EQ(fieldCount<PythonGlobalRule>(), 4u);
  EXPECT_EQ(fieldCount<PythonCounting>(), 3u);
  EXPECT_EQ(fieldCount<Scope>(), 3u);
  EXPECT_EQ(fieldCount<AccessorRule>(), 8u);
  EXPECT_EQ(fieldCount<GlobalRule>(), 5u);
  EXPECT_EQ(fieldCount<TypeRule>(), 5u);
  EXPECT_EQ(fieldCount<RewriteRules>(), 8u);
  EXPECT_EQ(fieldCount<PythonRewriteRule>(), 16u);
  EXPECT_EQ(fieldCount<PythonSpecRule>(), 4u);
  EXPECT_EQ(fieldCount<ThreadRule>(), 13u);
  EXPECT_EQ(fieldCount<EnvRule>(), 9u);
  EXPECT_EQ(fieldCount<CollapseRule>(), 4u);
}

TEST(RulesCodec, SampleSetsEveryField) {
  EXPECT_EQ(defaultsLeft(samplePack()), std::vector<std::string>{});
}

TEST(RulesCodec, EveryFieldSurvivesARoundTrip) {
  RulePack in = samplePack();
  RulePack out = rulePackFromJson(nlohmann::json::parse(toJson(in).dump()));
  EXPECT_EQ(differences(in, out), std::vector<std::string>{});
}

TEST(RulesCodec, ARuleSetComesBackWithItsLookups) {
  RulePack p = samplePack();
  p.accessors[0].macro.clear();  // a function rule
  RuleSet set = ruleSetFromJson(toJson(RuleSet({p})));
  ASSERT_EQ(set.packs().size(), 1u);
  const AccessorRule* a = set.function("gridlock::parallel_state::get_tensor_model_parallel_group");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->spell, "{g}->rank()");
  EXPECT_EQ(a->pack, 0u);  // the set numbers its packs again
}

TEST(RulesCodec, DigestFollowsRulesNotPaths) {
  RulePack p = samplePack();
  std::string base = digestOf(RuleSet({p}));
  EXPECT_EQ(base.size(), 32u);

  RulePack moved = p;
  moved.path = "/elsewhere/minitron.json";
  EXPECT_EQ(digestOf(RuleSet({moved})), base);

  RulePack scope = p;
  scope.scope.exclude.push_back("gen/**");
  EXPECT_NE(digestOf(RuleSet({scope})), base);

  RulePack spell = p;
  spell.rewrite.thread.position = facts::ThreadPosition::BeforeDefaults;
  EXPECT_NE(digestOf(RuleSet({spell})), base);

  RulePack counting = p;
  counting.python.oncePerLine = false;
  EXPECT_NE(digestOf(RuleSet({counting})), base);

  RulePack family = p;
  family.pythonAccessors[0].family.except.clear();
  EXPECT_NE(digestOf(RuleSet({family})), base);
}

TEST(RulesCodec, MalformedPackNamesTheProblem) {
  nlohmann::json j = toJson(samplePack());
  j["accessors"][0]["yields"] = "grup";
  try {
    rulePackFromJson(j);
    ADD_FAILURE() << "an unknown spelling was accepted";
  } catch (const gridlock::codec::Error& e) {
    EXPECT_STREQ(e.what(), "rule pack: /accessors/0/yields: unknown value \"grup\"");
  }
}

}  // namespace
}  // namespace gridlock::test
