// callers on Megatron-LM itself, when a checkout is at hand: GRIDLOCK_MEGATRON_LM names one at
// commit bf71c142b5b563af7348b55a692450869f47d734 (without it the test is skipped; the sources
// stay outside this repository). The expected sites were listed by reading the source (every
// class below TELinear in the class graph, every construction and super().__init__ of them),
// not by running gridlock: 29 sites, 8 by keyword, 15 left to the default, 6 through **kwargs.
// Four of them are two calls through a local alias (moe_layer.py: `linear_cls = InferenceLinear`
// at 270 or `linear_cls = TELinear` at 272, then `linear_cls(...)` at 273 and 285), each a site
// of both classes; a list made by matching names at calls misses them (it sees only the
// assignments).
#include "analysis/callers.h"
#include "index/inventory.h"
#include "python/frontend.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

namespace gridlock::test {
namespace {

const char* const kTe = "megatron/core/extensions/transformer_engine.py";
const char* const kInference = "megatron/core/tensor_parallel/inference_layers.py";
const char* const kRouter = "megatron/elastification/router/hybrid_flex_router.py";
const char* const kInit = "tests/unit_tests/tensor_parallel/test_initialization.py";
const char* const kInvariant = "tests/unit_tests/transformer/test_te_layers_batch_invariant.py";
const char* const kLmHead = "tests/unit_tests/extension/test_te_lmhead_column_parallel_linear.py";

std::string site(const std::string& file, unsigned line, const std::string& how) {
  return file + ":" + std::to_string(line) + " " + how;
}

TEST(MegatronCallers, TELinearTpGroupAtBf71c142) {
  const char* root = std::getenv("GRIDLOCK_MEGATRON_LM");
  if (!root || !*root) GTEST_SKIP() << "GRIDLOCK_MEGATRON_LM names no Megatron-LM checkout";
  python::PythonOptions o;
  o.root = root;
  rules::RuleSet rules;
  std::vector<python::ModuleFacts> modules = python::extractModules(python::findPythonFiles(o), o);
  index::Inventory inventory = index::merge(python::resolveModules(modules, rules, o));
  auto r = analysis::callers(inventory.program,
                             "megatron.core.extensions.transformer_engine.TELinear", "tp_group");

  const std::string base = "base_init forwarded keyword", kw = "direct explicit keyword",
                    none = "direct default omitted", star = "direct explicit **kwargs";
  std::multiset<std::string> expected{
      site(kTe, 541, kw),
      site(kTe, 1647, base),
      site(kTe, 1796, base),
      site(kTe, 1907, base),
      site(kInference, 96, base),
      site(kInference, 273, base),
      site(kInference, 371, base),
      site(kRouter, 145, none),
      site(kRouter, 157, none),
      site(kInit, 132, none),
      site(kInit, 147, none),
      site(kInit, 170, none),
      site(kInit, 185, none),
      site(kInvariant, 154, none),
      site(kInvariant, 201, none),
      site(kInvariant, 490, none),
      site(kInvariant, 502, none),
      site("tests/unit_tests/fusions/test_te_fused_ops.py", 84, none),
      site("megatron/core/transformer/moe/moe_layer.py", 273, none),  // InferenceLinear
      site("megatron/core/transformer/moe/moe_layer.py", 273, none),  // TELinear
      site("megatron/core/transformer/moe/moe_layer.py", 285, none),  // InferenceLinear
      site("megatron/core/transformer/moe/moe_layer.py", 285, none),  // TELinear
      site("tests/unit_tests/distributed/test_grad_sync_with_expert_parallel.py", 130, kw),
      site(kLmHead, 73, star),
      site(kLmHead, 77, star),
      site(kLmHead, 81, star),
      site(kLmHead, 85, star),
      site(kLmHead, 89, star),
      site(kLmHead, 93, star)};
  std::multiset<std::string> actual;
  for (const auto& s : r.sites)
    actual.insert(
        site(s.file, s.line,
             facts::str(s.via) + " " + facts::str(s.supplied) + " " + facts::str(s.passed)));
  EXPECT_EQ(actual, expected);
  EXPECT_EQ(r.byPassed, (std::map<facts::Passed, size_t>{{facts::Passed::Keyword, 8},
                                                         {facts::Passed::Omitted, 15},
                                                         {facts::Passed::StarKwargs, 6}}));
  const std::string te = "megatron.core.extensions.transformer_engine.",
                    inf = "megatron.core.tensor_parallel.inference_layers.";
  EXPECT_EQ(r.classes,
            (std::vector<std::string>{
                te + "TEColumnParallelLinear", te + "TELMHeadColumnParallelLinear", te + "TELinear",
                te + "TERowParallelLinear", inf + "InferenceColumnParallelLinear",
                inf + "InferenceLinear", inf + "InferenceRowParallelLinear"}));
}

}  // namespace
}  // namespace gridlock::test
