// The Python rewrite's line wrapper (tool/rewrite/python/wrap.h) on small sources: a line the edits
// made too long is split the way black splits it, and a statement split over lines that the
// edits shortened is joined when black would join it. Each expected text was checked by
// reasoning against black's rules (right-hand split at the last bracket; contents on one
// indented line when they fit, else one element per line with a comma; inside brackets, a split
// at the element's operators first; a logical line that fits, trailing comment included, is
// written on one line unless a magic trailing comma or a comment inside keeps it split).
#include "rewrite/python/wrap.h"

#include "rewrite/python/line_length.h"

#include <gtest/gtest.h>

#include <string>

namespace gridlock::rewrite::py {
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

// `text` wrapped at `limit`, the edits having touched `needle` (its first occurrence).
std::string touching(const std::string& text, const std::string& needle, unsigned limit) {
  size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  return wrapLongStatements(
      text, {{static_cast<unsigned>(at), static_cast<unsigned>(at + needle.size())}}, limit,
      "    ");
}

// attention.py:1930 at Megatron-LM bf71c142 in small: black had split the statement at its last
// bracket; the edit shortened its first line, and the whole statement now fits in 100 columns
// (12 + 78 = 90), so black writes it on one line: the bracket's contents join without spaces
// inside the parentheses.
const std::string kShortened =
    "class Attention:\n"
    "    def gate(self):\n"
    "        if self.config.num_query_groups < self.world_size:\n"
    "            idx = self.tp_group.rank() % (\n"
    "                self.world_size // self.config.num_query_groups\n"
    "            )\n"
    "            return idx\n";

TEST(PyWrap, AShortenedStatementThatFitsIsJoined) {
  EXPECT_EQ(touching(kShortened, "self.tp_group.rank()", 100),
            "class Attention:\n"
            "    def gate(self):\n"
            "        if self.config.num_query_groups < self.world_size:\n"
            "            idx = self.tp_group.rank() % (self.world_size // "
            "self.config.num_query_groups)\n"
            "            return idx\n");
}

// At 89 columns the joined line (90) does not fit: the split stays as black left it.
TEST(PyWrap, AShortenedStatementThatDoesNotFitStays) {
  EXPECT_EQ(touching(kShortened, "self.tp_group.rank()", 89), kShortened);
}

// A statement the edits did not touch is not looked at (not joined, though it would fit).
TEST(PyWrap, AnUntouchedSplitStatementStays) {
  EXPECT_EQ(touching(kShortened, "return idx", 100), kShortened);
}

// A magic trailing comma keeps the elements one per line, however short.
TEST(PyWrap, AMagicTrailingCommaKeepsTheSplit) {
  const std::string in =
      "def f(x, tp_group):\n"
      "    return gather(\n"
      "        x,\n"
      "        tp_group,\n"
      "    )\n";
  EXPECT_EQ(touching(in, "tp_group,", 100), in);
}

// black counts a trailing comment in the joined line's length (two spaces, then the comment):
// `    y = call(first_argument, tp_group)` is 38 columns, 57 with `  # keeps the group` (19).
const std::string kCommented =
    "def f(first_argument, tp_group):\n"
    "    y = call(\n"
    "        first_argument, tp_group\n"
    "    )  # keeps the group\n"
    "    return y\n";

TEST(PyWrap, ATrailingCommentCountsInTheJoinedLength) {
  EXPECT_EQ(touching(kCommented, "tp_group\n", 56), kCommented);
  EXPECT_EQ(touching(kCommented, "tp_group\n", 57),
            "def f(first_argument, tp_group):\n"
            "    y = call(first_argument, tp_group)  # keeps the group\n"
            "    return y\n");
}

// A comment among the elements: black would move it to the joined line's end; the wrapper
// leaves the statement as it is rather than decide where a comment goes.
TEST(PyWrap, ACommentInsideKeepsTheSplit) {
  const std::string in =
      "def f(x, tp_group):\n"
      "    y = call(\n"
      "        x, tp_group  # the group\n"
      "    )\n"
      "    return y\n";
  EXPECT_EQ(touching(in, "tp_group  #", 100), in);
}

// A def header whose parameters the edits shortened: joined through its colon, the return
// annotation kept; the body is not part of the line.
TEST(PyWrap, AShortenedDefHeaderIsJoined) {
  const std::string in =
      "def gather_region(\n"
      "    input_tensor, tp_group\n"
      ") -> Tensor:\n"
      "    return input_tensor\n";
  EXPECT_EQ(touching(in, "tp_group", 100),
            "def gather_region(input_tensor, tp_group) -> Tensor:\n"
            "    return input_tensor\n");
}

// A chain black split before its dots joins without a space before each dot; a split before an
// operator joins with one.
TEST(PyWrap, SplitsBeforeADotOrAnOperatorJoinAsBlackSpacesThem) {
  const std::string in =
      "def f(self):\n"
      "    return call(\n"
      "        self.tp_group\n"
      "        .rank()\n"
      "        + 1\n"
      "    )\n";
  EXPECT_EQ(touching(in, "self.tp_group", 100),
            "def f(self):\n"
            "    return call(self.tp_group.rank() + 1)\n");
}

// Parentheses black added around a right-hand side are redundant once it fits (black drops
// them), and a string spanning lines or a backslash cannot be joined by removing line breaks:
// those statements are left as they are.
TEST(PyWrap, RedundantParenthesesStringsAndBackslashesStay) {
  const std::string parens =
      "def f(a, b):\n"
      "    x = (\n"
      "        a + b\n"
      "    )\n"
      "    return x\n";
  EXPECT_EQ(touching(parens, "a + b", 100), parens);
  const std::string text =
      "def f(a):\n"
      "    return call(\n"
      "        a, \"\"\"two\n"
      "lines\"\"\"\n"
      "    )\n";
  EXPECT_EQ(touching(text, "a, ", 100), text);
  const std::string backslash =
      "def f(a, b):\n"
      "    x = a + \\\n"
      "        b\n"
      "    return x\n";
  EXPECT_EQ(touching(backslash, "a + ", 100), backslash);
}

// A project that sets black's skip-magic-trailing-comma (Megatron-LM's pyproject.toml) has no
// magic trailing comma: a statement that fits is joined and the comma before its closing bracket
// dropped; a one-element tuple keeps its comma, which makes it a tuple.
TEST(PyWrap, WithoutMagicTrailingCommasAShortenedStatementJoinsWithoutItsComma) {
  const std::string in =
      "def f(x, tp_group):\n"
      "    y = gather(\n"
      "        x,\n"
      "        (tp_group,),\n"
      "    )\n"
      "    return y\n";
  size_t at = in.find("tp_group,),");
  std::vector<std::pair<unsigned, unsigned>> touched = {
      {static_cast<unsigned>(at), static_cast<unsigned>(at + 8)}};
  EXPECT_EQ(wrapLongStatements(in, touched, 100, "    ", false),
            "def f(x, tp_group):\n"
            "    y = gather(x, (tp_group,))\n"
            "    return y\n");
  EXPECT_EQ(wrapLongStatements(in, touched, 100, "    ", true), in);
  // 30 columns joined: at 29 black splits at the last bracket, whose contents fit on one line
  // indented a level (8 + 14 columns), again without the comma.
  EXPECT_EQ(wrapLongStatements(in, touched, 29, "    ", false),
            "def f(x, tp_group):\n"
            "    y = gather(\n"
            "        x, (tp_group,)\n"
            "    )\n"
            "    return y\n");
  // At 21 they do not fit: the elements stay one per line.
  EXPECT_EQ(wrapLongStatements(in, touched, 21, "    ", false), in);
}

// The names an import keeps after an edit removed one: without magic trailing commas, black
// writes an import that fits on one line without its parentheses (78 columns), and one that does
// not one name per line, each with a comma, even where the names would fit on one indented line
// (black always explodes an import's names). With magic trailing commas, the split stays.
TEST(PyWrap, AnImportThatFitsLosesItsParenthesesWithoutMagicTrailingCommas) {
  const std::string in =
      "from pkg.parallel_state import (\n"
      "    get_data_parallel_group,\n"
      "    get_data_parallel_rank,\n"
      ")\n";
  const unsigned at = static_cast<unsigned>(in.find("get_data_parallel_rank"));
  EXPECT_EQ(wrapLongStatements(in, {{at, at}}, 78, "    ", false),
            "from pkg.parallel_state import get_data_parallel_group, get_data_parallel_rank\n");
  EXPECT_EQ(wrapLongStatements(in, {{at, at}}, 77, "    ", false), in);
  EXPECT_EQ(wrapLongStatements(in, {{at, at}}, 100, "    ", true), in);
}

// The setting, as [tool.black] spells it with dashes or underscores; another section's, or
// false, leaves trailing commas magic.
TEST(PyWrap, SkipMagicTrailingCommaIsReadFromToolBlack) {
  EXPECT_FALSE(
      magicTrailingCommaIn("[tool.black]\nline_length = 100\n"
                           "skip_magic_trailing_comma = true\n"));
  EXPECT_FALSE(magicTrailingCommaIn("[tool.black]\nskip-magic-trailing-comma = true  # why\n"));
  EXPECT_TRUE(magicTrailingCommaIn("[tool.black]\nskip-magic-trailing-comma = false\n"));
  EXPECT_TRUE(magicTrailingCommaIn("[tool.ruff]\nskip-magic-trailing-comma = true\n"));
  EXPECT_TRUE(magicTrailingCommaIn(""));
}

// black's line length as pyproject.toml spells it in TOML: a [tool.black] header, dotted keys
// under [tool], an inline table; [tool.ruff]'s when black says nothing. A `[tool.black]` line
// inside a multi-line string is text, no table; a file that is not TOML (a table defined
// twice) says nothing.
TEST(PyWrap, LineLengthIsReadFromPyprojectAsToml) {
  EXPECT_EQ(lineLengthIn("[tool.black]\nline-length = 100  # Megatron's\n", true), 100u);
  EXPECT_EQ(lineLengthIn("[tool.black]\nline_length = 119\n", true), 119u);
  EXPECT_EQ(lineLengthIn("[tool]\nblack.line-length = 120\n", true), 120u);
  EXPECT_EQ(lineLengthIn("tool.black = { line-length = 99, target-version = ['py38'] }\n", true),
            99u);
  EXPECT_EQ(lineLengthIn("[tool.ruff]\nline-length = 110\n[tool.black]\nskip-string-"
                         "normalization = true\n",
                         true),
            110u);
  EXPECT_EQ(lineLengthIn("[project]\ndescription = \"\"\"\n[tool.black]\nline-length = 50\n"
                         "\"\"\"\n",
                         true),
            0u);
  EXPECT_EQ(lineLengthIn("[tool.black]\nline-length = 100\n[tool.black]\n", true), 0u);
  EXPECT_EQ(lineLengthIn("[flake8]\nmax-line-length = 120\n", false), 120u);
}

TEST(PyWrap, SkipMagicTrailingCommaIsReadAsToml) {
  EXPECT_FALSE(magicTrailingCommaIn("[tool]\nblack = { skip-magic-trailing-comma = true }\n"));
  EXPECT_TRUE(
      magicTrailingCommaIn("[project]\nreadme = '''\n[tool.black]\n"
                           "skip-magic-trailing-comma = true\n'''\n"));
}

// Contents black split at an operator, which the edits shortened: the statement does not fit on
// one line at 41 (4 + 49 columns), but the contents do on one line indented a level (8 + 33),
// as black's right-hand split writes them; at 40 they do not.
TEST(PyWrap, ShortenedContentsOverSeveralLinesGoOnOneIndentedLine) {
  const std::string in =
      "def f(self):\n"
      "    return combine(\n"
      "        self.tp_group.rank()\n"
      "        * self.width\n"
      "    )\n";
  EXPECT_EQ(touching(in, "self.tp_group.rank()", 41),
            "def f(self):\n"
            "    return combine(\n"
            "        self.tp_group.rank() * self.width\n"
            "    )\n");
  EXPECT_EQ(touching(in, "self.tp_group.rank()", 40), in);
}

}  // namespace
}  // namespace gridlock::rewrite::py
