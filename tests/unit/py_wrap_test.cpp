// The Python rewrite's line wrapper (tool/pyrewrite/wrap.h) on small sources: a line the edits
// made too long is split the way black splits it. Each expected text was checked by reasoning
// against black's rules (right-hand split at the last bracket; contents on one indented line
// when they fit, else one element per line with a comma; inside brackets, a split at the
// element's operators first).
#include "pyrewrite/wrap.h"

#include <gtest/gtest.h>

#include <string>

namespace gridlock::pyrewrite {
namespace {

// `text` wrapped at `limit`, its longest line's code counted as what the edits touched.
std::string wrapped(const std::string& text, unsigned limit) {
  size_t best = 0, bestLength = 0;
  for (size_t at = 0; at < text.size();) {
    size_t eol = text.find('\n', at);
    if (eol - at > bestLength) {
      best = at;
      bestLength = eol - at;
    }
    at = eol + 1;
  }
  size_t code = text.find_first_not_of(' ', best);
  return wrapLongStatements(
      text, {{static_cast<unsigned>(code), static_cast<unsigned>(best + bestLength)}}, limit,
      "    ");
}

const std::string kGather =
    "def g(first_input_tensor, tp_group):\n"
    "    return gather(first_input_tensor, dim=first_input_tensor.ndim, tp_group=tp_group)\n";

TEST(PyWrap, ALineThatFitsStays) { EXPECT_EQ(wrapped(kGather, 88), kGather); }

TEST(PyWrap, AnUntouchedLineStays) {
  EXPECT_EQ(wrapLongStatements(kGather, {{0, 10}}, 60, "    "), kGather);
}

TEST(PyWrap, ArgumentsThatFitGoOnOneIndentedLine) {
  EXPECT_EQ(wrapped(kGather, 80),
            "def g(first_input_tensor, tp_group):\n"
            "    return gather(\n"
            "        first_input_tensor, dim=first_input_tensor.ndim, tp_group=tp_group\n"
            "    )\n");
}

TEST(PyWrap, ArgumentsThatDoNotFitGoOnePerLineWithCommas) {
  EXPECT_EQ(wrapped(kGather, 60),
            "def g(first_input_tensor, tp_group):\n"
            "    return gather(\n"
            "        first_input_tensor,\n"
            "        dim=first_input_tensor.ndim,\n"
            "        tp_group=tp_group,\n"
            "    )\n");
}

// dynamic_context.py's supply in small: an argument of an exploded call grew too long. black
// splits the element at `//` first, then the call it starts with.
TEST(PyWrap, AnElementOfAnExplodedCallSplitsAtItsOperatorThenItsCall) {
  const std::string in =
      "def f(self, pg_collection, tp_size):\n"
      "    NVLSAllGatherVDispatcher.allocate_buffers(\n"
      "        per_rank_worst_case_token_count=self.round_up_tokens(self.max_tokens, "
      "tp_size=pg_collection.tp.size()) // tp_size,\n"
      "        topk=8,\n"
      "    )\n";
  EXPECT_EQ(wrapped(in, 100),
            "def f(self, pg_collection, tp_size):\n"
            "    NVLSAllGatherVDispatcher.allocate_buffers(\n"
            "        per_rank_worst_case_token_count=self.round_up_tokens(\n"
            "            self.max_tokens, tp_size=pg_collection.tp.size()\n"
            "        )\n"
            "        // tp_size,\n"
            "        topk=8,\n"
            "    )\n");
}

// tokenization.py's threaded parameter in small: a def's parameters, all on one line inside
// the brackets, no longer fit: one per line, each with a comma.
TEST(PyWrap, ContentsOnTheirOwnLineGoOnePerLine) {
  const std::string in =
      "def tokenize_prompts(\n"
      "    tokenizer, dp_group, prompts=None, tokens_to_generate=None, add_BOS=None, rank=0\n"
      "):\n"
      "    return tokenizer\n";
  EXPECT_EQ(wrapped(in, 60),
            "def tokenize_prompts(\n"
            "    tokenizer,\n"
            "    dp_group,\n"
            "    prompts=None,\n"
            "    tokens_to_generate=None,\n"
            "    add_BOS=None,\n"
            "    rank=0,\n"
            "):\n"
            "    return tokenizer\n");
}

// A def header a threaded parameter made too long (issue 31): black splits at the parameters'
// brackets, the contents on one line indented a level when they fit, `):` on a line of its own.
const std::string kDef =
    "def gather_region(input_tensor, tp_group, dim=-1, async_op=False):\n"
    "    return input_tensor\n";

TEST(PyWrap, DefParametersThatFitGoOnOneIndentedLine) {
  EXPECT_EQ(wrapped(kDef, 60),
            "def gather_region(\n"
            "    input_tensor, tp_group, dim=-1, async_op=False\n"
            "):\n"
            "    return input_tensor\n");
}

TEST(PyWrap, DefParametersThatDoNotFitGoOnePerLineWithCommas) {
  EXPECT_EQ(wrapped(kDef, 40),
            "def gather_region(\n"
            "    input_tensor,\n"
            "    tp_group,\n"
            "    dim=-1,\n"
            "    async_op=False,\n"
            "):\n"
            "    return input_tensor\n");
}

// linear_replacements.py's header in small: the return annotation stays after the closing
// bracket; its own brackets are not where black splits.
TEST(PyWrap, DefWithAReturnAnnotationKeepsItAfterTheBracket) {
  const std::string in =
      "def _gather_from_tensor_parallel_region(input_, tp_group: Optional[ProcessGroup] = None) "
      "-> Optional[Tensor]:\n"
      "    return input_\n";
  EXPECT_EQ(wrapped(in, 100),
            "def _gather_from_tensor_parallel_region(\n"
            "    input_, tp_group: Optional[ProcessGroup] = None\n"
            ") -> Optional[Tensor]:\n"
            "    return input_\n");
}

// A method: the split lines are indented from the def's own indentation.
TEST(PyWrap, MethodParametersSplitFromTheMethodsIndentation) {
  const std::string in =
      "class Linear:\n"
      "    def forward(self, input_, weight, bias=None, tp_group=None):\n"
      "        return input_\n";
  EXPECT_EQ(wrapped(in, 60),
            "class Linear:\n"
            "    def forward(\n"
            "        self, input_, weight, bias=None, tp_group=None\n"
            "    ):\n"
            "        return input_\n");
  EXPECT_EQ(wrapped(in, 40),
            "class Linear:\n"
            "    def forward(\n"
            "        self,\n"
            "        input_,\n"
            "        weight,\n"
            "        bias=None,\n"
            "        tp_group=None,\n"
            "    ):\n"
            "        return input_\n");
}

// A comment on the long line: black splits the element and keeps the comment on its last
// piece; the wrapper leaves such a line as it is rather than decide where a comment goes.
TEST(PyWrap, ALongElementWithACommentStays) {
  const std::string in =
      "def f(x):\n"
      "    return call(\n"
      "        first_argument_value + second_argument_value,  # why it is so\n"
      "        x,\n"
      "    )\n";
  EXPECT_EQ(wrapped(in, 40), in);
}

}  // namespace
}  // namespace gridlock::pyrewrite
