// Require on fixtures/rewrite/py_require's sizes.py: a fallback stays while some call writes an
// argument that may be None, and the read left names that call and why its value may be None
// (the golden case checks the edits and the reasons; this checks the details a user reads);
// likewise for the defs a parameter is forwarded through (specs.py) and the constructions the
// pack's spec model finds (fixtures/rewrite/py_specs).
#include "rewrite/rewrite_case.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace gridlock::test {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const std::string kLeft =
    "note: left pkg.parallel_state.get_tensor_model_parallel_world_size: open_fallback (";

TEST(PyRequireMaybeNone, TheReadLeftNamesTheCallThatMayPassNone) {
  Case c("py_require");
  CommandResult r = c.run("rewrite", "--diff --python-checker=warn");
  ASSERT_EQ(r.status, 0) << r.err;
  // Each fallback of sizes.py (line:column of its read) -> the call that may pass None.
  const std::pair<std::string, std::string> expected[] = {
      // megatron/training's `tp_size=args.rl_inference_tensor_model_parallel_size`, in small.
      {"10:34",
       "21:12: passes `args.tp_size`, which may be None (`args.tp_size` is an attribute "
       "of an object the scan cannot type)"},
      {"17:34",
       "26:12: passes `size`, which may be None (`size` is assigned `tp_size`: "
       "`tp_size` defaults to None in with_default)"},
      {"24:34", "34:12: passes `size`, which may be None (`size` is assigned None)"},
      {"31:34",
       "43:16: passes `self.size`, which may be None (`self.size` is set to `size` in "
       "__init__: `size` defaults to None in __init__)"},
      // Forwarded through relay: the call that writes the value is relay's caller's.
      {"38:34",
       "54:12: passes `args.tp_size`, which may be None (`args.tp_size` is an attribute "
       "of an object the scan cannot type)"},
  };
  for (const auto& [read, call] : expected)
    EXPECT_TRUE(has(r.err, "pkg/sizes.py:" + read + ": " + kLeft +
                               "1 call site(s) may pass None for tp_size, so the fallback may run: "
                               "pkg/sizes_callers.py:" +
                               call + ")\n"))
        << read << "\n"
        << r.err;
}

// specs.py: a class named as a value keeps its fallback, the detail naming the use.
TEST(PyRequireNamedAsValue, TheReadLeftNamesTheUse) {
  Case c("py_require");
  CommandResult r = c.run("rewrite", "--diff --python-checker=warn");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string left =
      "note: left pkg.parallel_state.get_tensor_model_parallel_group: function_pointer (";
  EXPECT_TRUE(has(r.err, "pkg/specs.py:13:39: " + left +
                             "Block is named without a call (pkg/specs.py:53 names Block): what "
                             "calls it there may leave tp_group out, unseen)\n"))
      << r.err;
  EXPECT_TRUE(has(r.err, "pkg/specs.py:45:39: " + left +
                             "Kept is named without a call (pkg/specs.py:54 names KeptChild "
                             "(which inherits Kept.__init__)): what calls it there may leave "
                             "tp_group out, unseen)\n"))
      << r.err;
}

// The notes `gridlock rewrite --diff` writes on fixtures/rewrite/<fixture>.
std::string notesOf(const std::string& fixture) {
  Case c(fixture);
  CommandResult r = c.run("rewrite", "--diff --python-checker=warn");
  EXPECT_EQ(r.status, 0) << r.err;
  return r.err;
}

const std::string kTpLeft = "note: left pkg.parallel_state.get_tensor_model_parallel_group: ";

// specs.py: a def that passes the parameter on to the fallback's is checked as its own def: the
// detail names it and why its calls are not all seen.
TEST(PyRequireForwarded, TheReadLeftNamesTheDefItComesThrough) {
  std::string notes = notesOf("py_require");
  for (const std::string& line : {
           "pkg/specs.py:123:39: " + kTpLeft +
               "function_pointer (Forwarded's tp_group comes from Forwarding's tp_group, and "
               "Forwarding is named without a call (pkg/specs.py:133 names Forwarding): what "
               "calls it there may leave tp_group out, unseen)",
           "pkg/specs.py:145:39: " + kTpLeft +
               "open_fallback (ViaMethod's tp_group comes from Factory.build's tp_group, and "
               "Factory.build is a method: its calls through objects the scan cannot type are "
               "not seen, so the fallback is not proven dead)",
       })
    EXPECT_TRUE(has(notes, line + "\n")) << line << "\n" << notes;
}

// fixtures/rewrite/py_specs: the spec model's constructions, named in the reads it leaves.
TEST(PyRequireSpecs, TheReadLeftNamesTheConstructionsFromSpecs) {
  std::string notes = notesOf("py_specs");
  for (const std::string& line : {
           // Proj's field is built with an attribute of an object the scan cannot type.
           "pkg/layers.py:36:39: " + kTpLeft +
               "open_fallback (1 call site(s) may pass None for tp_group, so the fallback may "
               "run: pkg/layers.py:58:21: passes `config.tp_group`, which may be None "
               "(`config.tp_group` is an attribute of an object the scan cannot type))",
           // Norm, named by ("pkg.layers", "Norm") in the field `norm`, which Attention builds
           // without tp_group.
           "pkg/layers.py:45:39: " + kTpLeft +
               "open_fallback (1 call site(s) leave tp_group out and cannot be given it: "
               "pkg/layers.py:59:21: may build Norm from a spec, without tp_group)",
           // Attention through SelfAttention, whose spec is in a name: any field's call and any
           // build may build it; three leave tp_group out (helper's wide, Attention's norm,
           // Stack's second build).
           "pkg/layers.py:55:39: " + kTpLeft +
               "open_fallback (3 call site(s) leave tp_group out and cannot be given it: "
               "pkg/helper.py:5:12: may build SelfAttention from a spec, without tp_group; "
               "pkg/layers.py:59:21: may build SelfAttention from a spec, without tp_group; "
               "pkg/layers.py:77:22: may build SelfAttention from a spec, without tp_group)",
           // Wide's field is built in a module that names no spec.
           "pkg/layers.py:98:39: " + kTpLeft +
               "open_fallback (1 call site(s) leave tp_group out and cannot be given it: "
               "pkg/helper.py:5:12: may build Wide from a spec, without tp_group)",
           // A spec of Got is handed to get_module.
           "pkg/layers.py:107:39: " + kTpLeft +
               "function_pointer (Got is named without a call (pkg/layer_specs.py:11 names Got): "
               "what calls it there may leave tp_group out, unseen)",
           "pkg/layers.py:85:39: " + kTpLeft +
               "function_pointer (Fetched is named without a call (pkg/layers.py:90 names "
               "Fetched): what calls it there may leave tp_group out, unseen)",
       })
    EXPECT_TRUE(has(notes, line + "\n")) << line << "\n" << notes;
}

// fixtures/rewrite/py_refusals: a pack that names no collection and no keyword_attributes is
// told of neither, nor of a group with no name; a helper named as a value where a name
// resolves to it (an import's alias) keeps its fallback, with that place as the reason.
TEST(PyRefusals, ReasonsAreInThePacksOwnWords) {
  std::string notes = notesOf("py_refusals");
  for (const std::string& line : {
           "pkg/calls.py:9:30: note: left pkg.parallel_state.get_tensor_model_parallel_group: "
           "no_spelling (the accessor is called with arguments (check_initialized=False), which "
           "may select another group than the tp group a call without them returns, the only "
           "one the pack spells)",
           "pkg/calls.py:13:12: note: left pkg.sharding.shard: open_fallback (this call leaves "
           "out the value of pkg.tp_shard.num_kv_heads, so pkg.sharding.shard reads "
           "pkg.tp_shard.num_kv_heads; cannot pass it here: the callee's fallback reads "
           "pkg.tp_shard.num_kv_heads, module state: Supply passes a group or a collection "
           "only)",
           "pkg/coord.py:14:30: note: left pkg.parallel_state.get_tensor_model_parallel_rank: "
           "function_pointer (cannot thread tp_group: stage_hook is named without a call at "
           "ext/hooks.py:5)",
       })
    EXPECT_TRUE(has(notes, line + "\n")) << line << "\n" << notes;
  EXPECT_FALSE(has(notes, "keyword_attributes")) << notes;
  EXPECT_FALSE(has(notes, "the  group")) << notes;
  EXPECT_FALSE(has(notes, "collection (")) << notes;
}

}  // namespace
}  // namespace gridlock::test
