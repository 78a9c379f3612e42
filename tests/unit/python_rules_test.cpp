// The Python keys of rule packs: parsing, every validation error, and the look-ups the Python
// frontend makes with a resolved dotted name (named rules, families, module state).
#include "rules/python_rewrite_rules.h"
#include "rules/rule_pack.h"
#include "rules/rule_set.h"
#include "unit/pack_error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace gridlock::rules {
namespace {

using facts::ReadKind;
using facts::Yields;

const char* kPack = R"({"name": "megatron",
  "python": {"count": "calls", "once_per_line": true, "laundering": false},
  "accessors": [
    {"python_family": {"module": "megatron.core.parallel_state", "prefix": "get_",
                       "suffixes": {"_group": "group", "_groups": "group", "_rank": "rank",
                                    "_world_size": "size", "_src_rank": "src_rank"},
                       "except": ["get_nccl_options", "get_virtual_pipeline_model_parallel_rank"],
                       "groups": {"tensor_model_parallel": "tp", "data_parallel": "dp"}},
     "kind": "accessor"},
    {"python": "megatron.core.parallel_state.get_tensor_model_parallel_group", "kind": "accessor",
     "group": "tp-named", "yields": "group"},
    {"python": "megatron.core.process_groups_config.ProcessGroupCollection.use_mpu_process_groups",
     "kind": "shim"},
    {"python": "megatron.core.parallel_state.is_pipeline_first_stage", "kind": "accessor",
     "group": "pp", "yields": "value"}],
  "globals": [
    {"python": "megatron.core.parallel_state._GLOBAL_MEMORY_BUFFER"},
    {"python_module": "megatron.core.parallel_state", "except": ["_LOCK"]}]})";

TEST(PythonRules, ParsesEveryKey) {
  RulePack p = parseRulePack(kPack, "p.json");
  EXPECT_TRUE(p.accessors.empty());
  EXPECT_TRUE(p.globals.empty());
  ASSERT_EQ(p.pythonAccessors.size(), 4u);
  const PythonFamily& f = p.pythonAccessors[0].family;
  EXPECT_EQ(f.module, "megatron.core.parallel_state");
  EXPECT_EQ(f.prefix, "get_");
  EXPECT_EQ(f.suffixes.size(), 5u);
  EXPECT_EQ(f.suffixes.at("_world_size"), Yields::Size);
  EXPECT_EQ(f.except.size(), 2u);
  EXPECT_EQ(f.groups.at("data_parallel"), "dp");
  EXPECT_EQ(p.pythonAccessors[2].kind, ReadKind::Shim);
  EXPECT_EQ(p.pythonAccessors[2].yields, Yields::Collection);
  ASSERT_EQ(p.pythonGlobals.size(), 2u);
  EXPECT_EQ(p.pythonGlobals[1].module, "megatron.core.parallel_state");
  EXPECT_TRUE(p.python.callsOnly);
  EXPECT_TRUE(p.python.oncePerLine);
  EXPECT_FALSE(p.python.launder);
}

TEST(PythonRules, NamedRulesComeBeforeFamilies) {
  RuleSet set({parseRulePack(kPack, "p.json")});
  EXPECT_TRUE(set.hasPython());
  auto named = set.pythonAccessor("megatron.core.parallel_state.get_tensor_model_parallel_group");
  ASSERT_TRUE(named);
  EXPECT_EQ(named->group, "tp-named");
  EXPECT_EQ(named->yields, Yields::Group);

  auto src = set.pythonAccessor("megatron.core.parallel_state.get_tensor_model_parallel_src_rank");
  ASSERT_TRUE(src);  // the longest suffix: _src_rank, not _rank
  EXPECT_EQ(src->group, "tp");
  EXPECT_EQ(src->yields, Yields::SrcRank);
  EXPECT_EQ(src->name, "megatron.core.parallel_state.get_tensor_model_parallel_src_rank");
  EXPECT_EQ(src->kind, ReadKind::Accessor);

  auto size = set.pythonAccessor("megatron.core.parallel_state.get_data_parallel_world_size");
  ASSERT_TRUE(size);
  EXPECT_EQ(size->group, "dp");
  EXPECT_EQ(size->yields, Yields::Size);

  // A family that names its groups matches those alone: a name with another middle, a group
  // it does not name or no group at all, is no accessor of it.
  EXPECT_FALSE(set.pythonAccessor("megatron.core.parallel_state.get_embedding_group"));
  EXPECT_FALSE(set.pythonAccessor("megatron.core.parallel_state.get_expert_tokens_for_rank"));

  auto shim = set.pythonAccessor(
      "megatron.core.process_groups_config.ProcessGroupCollection.use_mpu_process_groups");
  ASSERT_TRUE(shim);
  EXPECT_EQ(shim->kind, ReadKind::Shim);
  EXPECT_EQ(shim->group, "");

  EXPECT_FALSE(set.pythonAccessor("megatron.core.parallel_state.get_nccl_options"));
  EXPECT_FALSE(
      set.pythonAccessor("megatron.core.parallel_state.get_virtual_pipeline_model_parallel_rank"));
  EXPECT_FALSE(set.pythonAccessor("megatron.core.parallel_state.get_data_parallel_group_gloo"));
  EXPECT_FALSE(set.pythonAccessor("megatron.core.parallel_state.initialize_model_parallel"));
  EXPECT_FALSE(set.pythonAccessor("megatron.core.utils.get_data_parallel_group"));
  EXPECT_FALSE(set.pythonAccessor("megatron.core.parallel_state.Cls.get_data_parallel_group"));
  EXPECT_FALSE(set.pythonAccessor("megatron.core.parallel_state"));
}

// Without `groups`, every middle is its own group (or the family's `group`).
TEST(PythonRules, AFamilyWithoutGroupsTakesEveryMiddle) {
  RuleSet set({parseRulePack(R"({"name": "f", "accessors": [
    {"python_family": {"module": "m", "prefix": "get_", "suffixes": {"_rank": "rank"}},
     "kind": "accessor"},
    {"python_family": {"module": "n", "prefix": "get_", "suffixes": {"_rank": "rank"}},
     "kind": "accessor", "group": "tp"}]})",
                             "f.json")});
  auto own = set.pythonAccessor("m.get_embedding_rank");
  ASSERT_TRUE(own);
  EXPECT_EQ(own->group, "embedding");
  auto given = set.pythonAccessor("n.get_expert_tokens_for_rank");
  ASSERT_TRUE(given);
  EXPECT_EQ(given->group, "tp");
}

TEST(PythonRules, ModuleStateIsWhatItsFunctionsSet) {
  RuleSet set({parseRulePack(kPack, "p.json")});
  const std::string ps = "megatron.core.parallel_state.";
  EXPECT_NE(set.pythonGlobal(ps + "_GLOBAL_MEMORY_BUFFER", false), nullptr);
  EXPECT_NE(set.pythonGlobal(ps + "_TENSOR_MODEL_PARALLEL_GROUP", true), nullptr);
  EXPECT_EQ(set.pythonGlobal(ps + "_TENSOR_MODEL_PARALLEL_GROUP", false), nullptr);
  EXPECT_EQ(set.pythonGlobal(ps + "_LOCK", true), nullptr);
  EXPECT_EQ(set.pythonGlobal("megatron.core.utils._STATE", true), nullptr);
}

TEST(PythonRules, ExtendsTakesPythonRules) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "gridlock-python-rules-test";
  fs::create_directories(dir);
  std::ofstream(dir / "base.json") << kPack;
  std::ofstream(dir / "ours.json") << R"({"name": "ours", "extends": ["base"],
    "accessors": [{"python": "pkg.get_x", "kind": "accessor", "group": "x", "yields": "group"}]})";
  RulePack p = loadRulePack((dir / "ours.json").string());
  EXPECT_EQ(p.pythonAccessors.size(), 5u);
  EXPECT_EQ(p.pythonGlobals.size(), 2u);
  EXPECT_FALSE(p.python.callsOnly);  // counting is the pack's own
  EXPECT_TRUE(p.python.launder);
  fs::remove_all(dir);
}

TEST(PythonRules, ErrorsNameTheProblem) {
  auto pack = [](const std::string& entries) { return R"({"name": "x", )" + entries + "}"; };
  EXPECT_EQ(
      errorOf(pack(
          R"("accessors": [{"python": "a.b", "function": "a::b", "kind": "accessor", "group": "tp"}])")),
      "p.json: /accessors/0/function: unknown key (allowed: python, python_family, kind, "
      "group, yields, returns, state_parameter)");
  EXPECT_EQ(errorOf(pack(R"("accessors": [{"kind": "accessor", "group": "tp"}])")),
            "p.json: /accessors/0: exactly one of \"function\", \"macro\", \"python\" or "
            "\"python_family\" is required");
  EXPECT_EQ(
      errorOf(pack(R"("accessors": [{"python": "a..b", "kind": "accessor", "group": "tp"}])")),
      "p.json: /accessors/0/python: expected a dotted Python name "
      "(\"megatron.core.parallel_state\"), got \"a..b\"");
  EXPECT_EQ(errorOf(pack(R"("accessors": [{"python": "a.b", "kind": "accessor"}])")),
            "p.json: /accessors/0: an accessor needs \"group\" (the group it reads, e.g. \"tp\")");
  EXPECT_EQ(
      errorOf(pack(R"("accessors": [{"python": "a.b", "kind": "shim", "yields": "group"}])")),
      "p.json: /accessors/0/yields: a shim yields a whole collection: expected \"collection\"");
  EXPECT_EQ(
      errorOf(pack(
          R"("accessors": [{"python_family": {"module": "m", "suffixes": {}}, "kind": "accessor"}])")),
      "p.json: /accessors/0/python_family/suffixes: expected an object of name endings and "
      "what each yields, e.g. {\"_group\": \"group\", \"_world_size\": \"size\"}");
  EXPECT_EQ(
      errorOf(pack(
          R"("accessors": [{"python_family": {"module": "m", "suffixes": {"_g": "grp"}}, "kind": "accessor"}])")),
      "p.json: /accessors/0/python_family/suffixes/_g: expected one of \"group\", \"size\", "
      "\"rank\", \"src_rank\", \"value\"; got \"grp\"");
  EXPECT_EQ(
      errorOf(pack(
          R"("accessors": [{"python_family": {"module": "m", "suffixes": {"_g": "group"}}, "kind": "shim"}])")),
      "p.json: /accessors/0/kind: a family is of accessors: expected \"accessor\"");
  EXPECT_EQ(
      errorOf(pack(
          R"("accessors": [{"python_family": {"module": "m", "suffixes": {"_g": "group"}}, "kind": "accessor", "yields": "rank"}])")),
      "p.json: /accessors/0/yields: a family's suffixes say what each accessor yields");
  EXPECT_EQ(
      errorOf(pack(
          R"("accessors": [{"python_family": {"module": "m", "suffixes": {"_g": "group"}, "except": ["a b"]}, "kind": "accessor"}])")),
      "p.json: /accessors/0/python_family/except/0: expected a Python name, got \"a b\"");
  EXPECT_EQ(
      errorOf(pack(
          R"("accessors": [{"python": "a.b", "kind": "accessor", "group": "tp", "yields": "group"},
                            {"python": "a.b", "kind": "accessor", "group": "pp", "yields": "group"}])")),
      "p.json: /accessors/1: duplicate rule for python a.b");
  EXPECT_EQ(errorOf(pack(R"("globals": [{"python": "a.b", "field": "f"}])")),
            "p.json: /globals/0/field: unknown key (allowed: python, python_module, kind, except)");
  EXPECT_EQ(errorOf(pack(R"("globals": [{"python": "a.b", "except": ["x"]}])")),
            "p.json: /globals/0/except: only a \"python_module\" rule has exceptions");
  EXPECT_EQ(errorOf(pack(R"("globals": [{"python_module": "a", "python": "a.b"}])")),
            "p.json: /globals/0: exactly one of \"python\" or \"python_module\" is required");
  EXPECT_EQ(errorOf(pack(R"("python": {"count": "lines"}, "globals": [{"python": "a.b"}])")),
            "p.json: /python/count: expected one of \"references\", \"calls\"; got \"lines\"");
  EXPECT_EQ(errorOf(pack(R"("python": {"dedup": true}, "globals": [{"python": "a.b"}])")),
            "p.json: /python/dedup: unknown key (allowed: count, once_per_line, laundering)");
}

TEST(PythonRules, TwoPacksCannotNameOneAccessor) {
  RulePack a = parseRulePack(
      R"({"name": "a", "accessors": [{"python": "m.f", "kind": "accessor", "group": "tp",
                                     "yields": "group"}]})",
      "a.json");
  RulePack b = parseRulePack(
      R"({"name": "b", "accessors": [{"python": "m.f", "kind": "accessor", "group": "tp",
                                     "yields": "group"}]})",
      "b.json");
  try {
    RuleSet set({a, b});
    FAIL() << "no error";
  } catch (const RuleError& e) {
    EXPECT_STREQ(e.what(), "b.json: python m.f is already defined by another pack");
  }
}

// rewrite.python.dropped_keywords names keyword arguments: identifiers, nothing else.
TEST(PythonRules, DroppedKeywordsAreIdentifiers) {
  const std::string head = R"({"name": "p",
    "accessors": [{"python": "m.get_tp_group", "kind": "accessor", "group": "tp", "yields": "group"}],
    "rewrite": {"python": {"group": "{group}_group", "dropped_keywords": )";
  RulePack ok = parseRulePack(head + R"(["check_initialized"]}}})", "p.json");
  EXPECT_EQ(ok.rewrite.python.droppedKeywords, std::vector<std::string>{"check_initialized"});
  EXPECT_EQ(errorOf(head + R"(["check_initialized", "check-initialized"]}}})"),
            "p.json: /rewrite/python/dropped_keywords/1: expected a Python identifier");
}

// rewrite.python.edge_callers: "refuse" (the default) or "global".
TEST(PythonRules, EdgeCallersRefuseOrPassTheGlobal) {
  const std::string head = R"({"name": "p",
    "accessors": [{"python": "m.get_tp_group", "kind": "accessor", "group": "tp", "yields": "group"}],
    "rewrite": {"python": {"group": "{group}_group")";
  EXPECT_FALSE(parseRulePack(head + "}}}", "p.json").rewrite.python.edgeGlobal);
  EXPECT_FALSE(
      parseRulePack(head + R"(, "edge_callers": "refuse"}}})", "p.json").rewrite.python.edgeGlobal);
  EXPECT_TRUE(
      parseRulePack(head + R"(, "edge_callers": "global"}}})", "p.json").rewrite.python.edgeGlobal);
  EXPECT_EQ(
      errorOf(head + R"(, "edge_callers": "pass"}}})"),
      "p.json: /rewrite/python/edge_callers: expected \"refuse\" or \"global\", got \"pass\"");
}

// rewrite.python.collapse: false (the default) or true.
TEST(PythonRules, CollapseIsOptIn) {
  const std::string head = R"({"name": "p",
    "accessors": [{"python": "m.get_tp_group", "kind": "accessor", "group": "tp", "yields": "group"}],
    "rewrite": {"python": {"group": "{group}_group")";
  EXPECT_FALSE(parseRulePack(head + "}}}", "p.json").rewrite.python.collapse);
  EXPECT_TRUE(parseRulePack(head + R"(, "collapse": true}}})", "p.json").rewrite.python.collapse);
  EXPECT_EQ(errorOf(head + R"(, "collapse": "yes"}}})"),
            "p.json: /rewrite/python/collapse: expected true or false");
}

// rewrite.python.specs: the spec classes and build functions are required, names are dotted.
TEST(PythonRules, SpecsNameTheSpecClassesAndTheirBuilders) {
  const std::string head = R"({"name": "p",
    "accessors": [{"python": "m.get_tp_group", "kind": "accessor", "group": "tp", "yields": "group"}],
    "rewrite": {"python": {"group": "{group}_group")";
  EXPECT_TRUE(parseRulePack(head + "}}}", "p.json").rewrite.python.specs.empty());
  PythonSpecRule specs =
      parseRulePack(head + R"(, "specs": {"spec": ["m.ModuleSpec"], "build": ["m.build_module"],
                                          "get": ["m.get_module"], "submodules": ["*Submodules"]}}}})",
                    "p.json")
          .rewrite.python.specs;
  EXPECT_EQ(specs.spec, std::vector<std::string>{"m.ModuleSpec"});
  EXPECT_EQ(specs.build, std::vector<std::string>{"m.build_module"});
  EXPECT_EQ(specs.get, std::vector<std::string>{"m.get_module"});
  EXPECT_EQ(specs.submodules, std::vector<std::string>{"*Submodules"});
  EXPECT_EQ(errorOf(head + R"(, "specs": {"spec": ["m.ModuleSpec"]}}}})"),
            "p.json: /rewrite/python/specs: a spec model names its spec classes (spec) and the "
            "functions that build them (build)");
  EXPECT_EQ(errorOf(head + R"(, "specs": {"spec": ["m.ModuleSpec"], "build": ["m build"]}}}})"),
            "p.json: /rewrite/python/specs/build/0: expected a dotted Python name");
}

// rewrite.python.keyword_attributes: group -> keyword arguments -> attribute. A key is read
// as a call's arguments are (blanks squeezed, sorted by name), so order and spacing do not
// matter; anything but name=value pairs is an error.
TEST(PythonRules, KeywordAttributesAreKeyedByTheSortedArguments) {
  const std::string head = R"({"name": "p",
    "accessors": [{"python": "m.get_dp_group", "kind": "accessor", "group": "dp", "yields": "group"}],
    "rewrite": {"python": {"group": "{group}_group", "keyword_attributes": )";
  RulePack ok = parseRulePack(
      head + R"({"dp": {"with_gtp_remat=False ,  with_context_parallel = True": "dp_cp"}}}}})",
      "p.json");
  EXPECT_EQ(ok.rewrite.python.keywordAttributes,
            (std::map<std::string, std::map<std::string, std::string>>{
                {"dp", {{"with_context_parallel=True, with_gtp_remat=False", "dp_cp"}}}}));
  EXPECT_EQ(keywordKey({"with_gtp_remat=False", "check_initialized=False",
                        "with_context_parallel =\n True"},
                       {"check_initialized"}),
            "with_context_parallel=True, with_gtp_remat=False");
  EXPECT_EQ(keywordKey({"check_initialized=False"}, {"check_initialized"}), "");
  EXPECT_EQ(keywordKey({"True"}, {}), std::nullopt);        // positional
  EXPECT_EQ(keywordKey({"a=1", "a=2"}, {}), std::nullopt);  // twice
  EXPECT_EQ(keywordKey({"**kw"}, {}), std::nullopt);        // a dict's keys are not seen
  EXPECT_EQ(keywordKey({"x == y"}, {}), std::nullopt);      // a comparison, positional
  EXPECT_EQ(errorOf(head + R"({"dp": {"True": "dp"}}}}})"),
            "p.json: /rewrite/python/keyword_attributes/dp/True: expected keyword arguments "
            "written name=value, separated by commas");
  EXPECT_EQ(errorOf(head + R"({"dp": {"a.b=1": "dp"}}}}})"),
            "p.json: /rewrite/python/keyword_attributes/dp/a.b=1: expected keyword arguments "
            "written name=value, separated by commas");
  EXPECT_EQ(errorOf(head + R"({"dp": {"a=1": "dp.cp"}}}}})"),
            "p.json: /rewrite/python/keyword_attributes/dp/a=1: expected a Python identifier");
  EXPECT_EQ(errorOf(head + R"({"dp": "dp_cp"}}}})"),
            "p.json: /rewrite/python/keyword_attributes/dp: expected an object: keyword "
            "arguments -> attribute");
}

// rules/megatron-core-ratchet.json is the PR #6258 checker's test: prefix get_, five suffixes,
// five long-term names left out, the shim; rules/megatron-core.json adds to it.
TEST(PythonRules, TheShippedMegatronPacks) {
  RuleSet ratchet({loadRulePack(GRIDLOCK_SOURCE_DIR "/rules/megatron-core-ratchet.json")});
  const std::string ps = "megatron.core.parallel_state.";
  auto group = [&](const RuleSet& set, const std::string& name) {
    auto m = set.pythonAccessor(ps + name);
    return m ? m->group + ":" + std::string(facts::spell(m->yields)) : std::string("none");
  };
  EXPECT_EQ(group(ratchet, "get_tensor_model_parallel_group"), "tp:group");
  EXPECT_EQ(group(ratchet, "get_pipeline_model_parallel_last_rank"), "pp:rank");
  EXPECT_EQ(group(ratchet, "get_data_parallel_world_size"), "dp:size");
  EXPECT_EQ(group(ratchet, "get_tensor_model_parallel_src_rank"), "tp:src_rank");
  EXPECT_EQ(group(ratchet, "get_hybrid_data_context_parallel_groups"),
            "hybrid_data_context_parallel:group");
  // Not defined by parallel_state.py, counted by the checker all the same (a name test).
  EXPECT_EQ(group(ratchet, "get_data_and_context_parallel_group"),
            "data_and_context_parallel:group");
  for (const char* out : {"get_nccl_options", "get_all_ranks", "get_global_memory_buffer",
                          "get_virtual_pipeline_model_parallel_rank",
                          "get_virtual_pipeline_model_parallel_world_size",
                          "get_data_parallel_group_gloo", "get_context_parallel_global_ranks",
                          "is_pipeline_first_stage", "get_rank", "set_tensor_model_parallel_rank"})
    EXPECT_EQ(group(ratchet, out), "none") << out;
  auto shim = ratchet.pythonAccessor(
      "megatron.core.process_groups_config.ProcessGroupCollection.use_mpu_process_groups");
  ASSERT_TRUE(shim);
  EXPECT_EQ(shim->kind, ReadKind::Shim);
  const RulePack& r = ratchet.packs().at(0);
  EXPECT_TRUE(r.python.callsOnly);
  EXPECT_TRUE(r.python.oncePerLine);
  EXPECT_FALSE(r.python.launder);
  EXPECT_EQ(r.scope.exclude, (std::vector<std::string>{"megatron/core/parallel_state.py",
                                                       "megatron/core/process_groups_config.py"}));

  RuleSet gate({loadRulePack(GRIDLOCK_SOURCE_DIR "/rules/megatron-core.json")});
  EXPECT_EQ(group(gate, "get_tensor_model_parallel_group"), "tp:group");
  EXPECT_EQ(group(gate, "is_pipeline_first_stage"), "pp:value");
  EXPECT_EQ(group(gate, "is_pipeline_last_stage"), "pp:value");
  // A gloo group is not the NCCL group of its name, nor a collection's field.
  EXPECT_EQ(group(gate, "get_data_parallel_group_gloo"), "dp_gloo:group");
  EXPECT_EQ(group(gate, "get_expert_data_parallel_group_gloo"), "edp_gloo:group");
  // A list of groups, ProcessGroupCollection.hcp, not the cp group.
  EXPECT_EQ(group(gate, "get_hierarchical_context_parallel_groups"), "hcp:group");
  // Global ranks of other stages, not the rank in the pp group that {g}.rank() spells.
  for (const char* stage : {"first", "last", "next", "prev"})
    EXPECT_EQ(group(gate, std::string("get_pipeline_model_parallel_") + stage + "_rank"),
              "pp:value")
        << stage;
  EXPECT_EQ(group(gate, "get_global_memory_buffer"), "none");
  const RulePack& g = gate.packs().at(0);
  // The collection's fields as ProcessGroupCollection.use_mpu_process_groups() fills them:
  // `dp` there is get_data_parallel_group(with_gtp_remat=False), not what the default call
  // returns, so the dp group has no field; the expert data group's default is the gtp one.
  const auto& attributes = g.rewrite.python.attributes;
  EXPECT_EQ(attributes.count("dp"), 0u);
  EXPECT_EQ(attributes.at("edp"), "expt_dp_gtp_remat");
  EXPECT_EQ(attributes.at("etp"), "expt_tp");
  EXPECT_EQ(attributes.at("hcp"), "hcp");
  EXPECT_EQ(g.rewrite.python.droppedKeywords, std::vector<std::string>{"check_initialized"});
  // megatron/core is a library: its public functions keep their old callers working (a
  // keyword defaulting to None, the global as its fallback; no fallback made an error).
  EXPECT_EQ(g.rewrite.python.publicModules, std::vector<std::string>{"megatron/core/**"});
  EXPECT_TRUE(g.rewrite.python.publicKeyword);
  // Its tests, examples and training loop are edges: one that leaves a group out and holds
  // none passes the global written out, as PR #6293 edits them.
  EXPECT_TRUE(g.rewrite.python.edgeGlobal);
  // Several reads in a function Thread cannot change become one lookup, as PR #6293 takes the
  // TRT-LLM converter's; a source rank is spelled as the PR writes it.
  EXPECT_TRUE(g.rewrite.python.collapse);
  EXPECT_EQ(g.rewrite.python.spell.at(facts::Yields::SrcRank),
            "torch.distributed.get_global_rank({g}, 0)");
  // Accessor calls with arguments, as use_mpu_process_groups fills the fields: dp_cp is
  // get_data_parallel_group(with_context_parallel=True, with_gtp_remat=False); the call without
  // with_gtp_remat returns the gtp_remat group.
  const auto& byKeywords = g.rewrite.python.keywordAttributes;
  EXPECT_EQ(byKeywords.at("dp").at("with_context_parallel=True"), "dp_cp_gtp_remat");
  EXPECT_EQ(byKeywords.at("dp").at("with_context_parallel=True, with_gtp_remat=False"), "dp_cp");
  EXPECT_EQ(byKeywords.at("dp").at("with_gtp_remat=False"), "dp");
  EXPECT_EQ(byKeywords.at("edp").at("with_gtp_remat=False"), "expt_dp");
  EXPECT_EQ(byKeywords.at("tp_dp").at("with_context_parallel=True"), "tp_dp_cp");
  EXPECT_FALSE(g.python.callsOnly);
  EXPECT_FALSE(g.python.oncePerLine);
  EXPECT_TRUE(g.python.launder);
  EXPECT_NE(gate.pythonGlobal(ps + "_TENSOR_MODEL_PARALLEL_GROUP", true), nullptr);
  EXPECT_EQ(gate.pythonGlobal(ps + "_TENSOR_MODEL_PARALLEL_GROUP", false), nullptr);
}

// Setters, module-state accessors and the state object (docs/scan.md, docs/rewrite.md): what
// each key takes, and each error at its JSON path.
const char* kStatePack = R"({"name": "ds",
  "accessors": [
    {"python": "m.tp.get_kv", "kind": "accessor", "yields": "state", "returns": "m.tp.kv"},
    {"python": "m.tp.size", "kind": "accessor", "yields": "state", "state_parameter": "meta"}],
  "setters": [{"python": "m.tp.set_kv", "writes": "m.tp.kv"}, {"python": "m.tp.set_grain"},
              {"function": "tp::set_kv", "writes": "tp::kv"}],
  "globals": [{"python_module": "m.tp"}, {"variable": "tp::kv"}],
  "rewrite": {"python": {"state": {"m.tp": {"class": "m.tp.Meta",
    "fields": {"kv": "Optional[int]", "grain": "int"}, "attribute": "tp_meta"}}}}})";

TEST(PythonRules, SettersAndModuleStateAccessors) {
  RulePack p = parseRulePack(kStatePack, "p.json");
  ASSERT_EQ(p.setters.size(), 3u);
  EXPECT_EQ(p.setters[0].python, "m.tp.set_kv");
  EXPECT_EQ(p.setters[0].writes, "m.tp.kv");
  EXPECT_EQ(p.setters[1].writes, "");
  EXPECT_EQ(p.setters[2].function, "tp::set_kv");
  ASSERT_EQ(p.pythonAccessors.size(), 2u);
  EXPECT_EQ(p.pythonAccessors[0].yields, Yields::State);
  EXPECT_EQ(p.pythonAccessors[0].group, "");
  EXPECT_EQ(p.pythonAccessors[0].returns, "m.tp.kv");
  EXPECT_EQ(p.pythonAccessors[1].stateParameter, "meta");
  const PythonStateRule& st = p.rewrite.python.stateObjects.at("m.tp");
  EXPECT_EQ(st.cls, "m.tp.Meta");
  EXPECT_EQ(st.attribute, "tp_meta");
  EXPECT_EQ(st.parameter, "tp_meta");  // defaults to the attribute
  EXPECT_EQ(st.local, "tp_meta");
  EXPECT_EQ(st.place, "globals");
  EXPECT_EQ(st.build, "setters");
  EXPECT_FALSE(st.edgeDefault);
  EXPECT_FALSE(st.retireDeprecate);
  EXPECT_TRUE(p.rewrite.python.group.empty());  // a state object needs no group spelling
  RuleSet set({p});
  ASSERT_NE(set.pythonSetter("m.tp.set_kv"), nullptr);
  EXPECT_EQ(set.pythonSetter("m.tp.get_kv"), nullptr);
  ASSERT_NE(set.setter("tp::set_kv"), nullptr);
  EXPECT_EQ(set.setter("m.tp.set_kv"), nullptr);
  EXPECT_EQ(RuleSet::seenKey(p.setters[0]), "setter python m.tp.set_kv");
  EXPECT_EQ(RuleSet::seenKey(p.setters[2]), "setter function tp::set_kv");
  // A C++ setter no unit declares is named as a rule that matched nothing.
  std::vector<Unmatched> u = set.unmatched({"variable tp::kv"}, {"src/a.cpp"}, 2);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].lines, std::vector<std::string>{
                            "setter rule 'tp::set_kv' (pack ds) matched no declaration in 2 "
                            "translation units"});
}

TEST(PythonRules, SetterAndStateErrors) {
  auto with = [](const std::string& from, const std::string& to) {
    std::string text = kStatePack;
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return errorOf(text.replace(at, from.size(), to));
  };
  EXPECT_EQ(with(R"({"python": "m.tp.set_kv", "writes": "m.tp.kv"})",
                 R"({"python": "m.tp.set_kv", "writes": "m.other.kv"})"),
            "p.json: /setters/0/writes: m.other.kv is no global state of this pack: name it in "
            "\"globals\" (or its module in a \"python_module\" rule)");
  EXPECT_EQ(
      with(R"({"function": "tp::set_kv", "writes": "tp::kv"})", R"({"function": "tp::set_kv"})"),
      "p.json: /setters/2: missing required key \"writes\"");
  EXPECT_EQ(with(R"({"python": "m.tp.set_grain"})", R"({"python": "m.tp.set_grain", "x": 1})"),
            "p.json: /setters/1/x: unknown key (allowed: python, writes)");
  EXPECT_EQ(with(R"({"python": "m.tp.set_grain"})", R"({"python": "m.tp.set_kv"})"),
            "p.json: /setters/1: duplicate rule for setter python m.tp.set_kv");
  EXPECT_EQ(with(R"({"python": "m.tp.set_grain"})", R"({"python": "m.tp.get_kv"})"),
            "p.json: /setters/1: setter python m.tp.get_kv is an accessor of this pack too: a "
            "function reads or writes, not both");
  EXPECT_EQ(with(R"("state_parameter": "meta")", R"("state_parameter": "a.b")"),
            "p.json: /accessors/1/state_parameter: expected a parameter name (a Python "
            "identifier), got \"a.b\"");
  EXPECT_EQ(
      with(R"("yields": "state", "state_parameter")", R"("yields": "value", "state_parameter")"),
      "p.json: /accessors/1: an accessor needs \"group\" (the group it reads, e.g. \"tp\")");
  EXPECT_EQ(with(R"("yields": "state", "state_parameter")",
                 R"("group": "tp", "yields": "value", "state_parameter")"),
            "p.json: /accessors/1: \"state_parameter\" says the function reads module state: it "
            "yields \"state\"");
  EXPECT_EQ(
      with(R"("fields": {"kv": "Optional[int]", "grain": "int"})", R"("fields": {"grain": "int"})"),
      "p.json: /rewrite/python/state/m.tp/fields: names no field \"kv\", a state variable "
      "of m.tp the pack names (m.tp.kv): every state variable is a field");
  EXPECT_EQ(with(R"("attribute": "tp_meta")", R"("place": "here")"),
            "p.json: /rewrite/python/state/m.tp/place: expected one of \"globals\", "
            "\"after_imports\"; got \"here\"");
  EXPECT_EQ(with(R"("attribute": "tp_meta")", R"("build": {"call": "m.tp.Meta.of"})"),
            "p.json: /rewrite/python/state/m.tp: names neither \"attribute\" nor \"parameter\": "
            "what holds the instance");
  EXPECT_EQ(with(R"("attribute": "tp_meta")",
                 R"("parameter": "meta", "build": {"call": "m.tp.Meta.of"})"),
            "p.json: /rewrite/python/state/m.tp/build: missing required key \"config\"");
  EXPECT_EQ(with(R"("attribute": "tp_meta")", R"("parameter": "meta", "retire": "keep")"),
            "p.json: /rewrite/python/state/m.tp/retire: expected one of \"remove\", "
            "\"deprecate\"; got \"keep\"");
  EXPECT_EQ(with(R"({"class": "m.tp.Meta",)", R"({"klass": "m.tp.Meta",)"),
            "p.json: /rewrite/python/state/m.tp/klass: unknown key (allowed: class, fields, place, "
            "attribute, parameter, local, build, edge_callers, retire, private); did you mean "
            "\"class\"?");
}

}  // namespace
}  // namespace gridlock::rules
