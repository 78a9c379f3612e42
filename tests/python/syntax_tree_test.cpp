// The parser setup: the grammar against the runtime, and what counts as a file that does not
// parse (an ERROR or MISSING node, bytes that are not UTF-8), as `file:line:col: error: ...`.
#include "python/syntax_tree.h"
#include "python/grammar.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gridlock::python {
namespace {

using Errors = std::vector<std::string>;

TEST(PythonGrammar, AbiFitsTheRuntime) {
  EXPECT_EQ(abiProblem(14, {13, 14}), "");
  EXPECT_EQ(abiProblem(13, {13, 14}), "");
  EXPECT_EQ(abiProblem(15, {13, 14}),
            "the tree-sitter Python grammar has ABI 15, but the tree-sitter runtime reads ABI 13 "
            "to 14 (scripts/setup.sh installs a pair that fits)");
  EXPECT_NE(abiProblem(12, {13, 14}), "");
  // The grammar built in: tree-sitter-python 0.23.6 declares ABI 14.
  EXPECT_EQ(ts_language_version(pythonLanguage()), 14u);
  EXPECT_EQ(GRIDLOCK_PYTHON_GRAMMAR_ABI, 14);
}

TEST(PythonSyntax, ValidSourceHasNoErrors) {
  SyntaxTree t = SyntaxTree::parse(
      "from . import parallel_state as ps\n"
      "def f(g=None, *args, **kwargs):\n"
      "    return g or ps.get_tensor_model_parallel_group()\n"
      "x = [y async for y in z] if False else {**a}\n"
      "match x:\n"
      "    case [1, *rest]:\n"
      "        pass\n");
  EXPECT_EQ(t.errors("m.py"), Errors{});
  EXPECT_STREQ(ts_node_type(t.root()), "module");
}

TEST(PythonSyntax, AnErrorNodeIsNamedWithItsPlace) {
  SyntaxTree t = SyntaxTree::parse("x = 1\ndef f(:\n    pass\n");
  Errors e = t.errors("pkg/m.py");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].rfind("pkg/m.py:2:", 0), 0u) << e[0];
  EXPECT_NE(e[0].find(": error: invalid syntax"), std::string::npos) << e[0];
}

TEST(PythonSyntax, AMissingTokenIsNamed) {
  SyntaxTree t = SyntaxTree::parse("def f():\n    return (1 +\n");
  Errors e = t.errors("m.py");
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e[0].rfind("m.py:2:", 0), 0u) << e[0];
}

TEST(PythonSyntax, ErrorsStopAtTheLimit) {
  std::string src;
  for (int i = 0; i < 30; ++i) src += "def f" + std::to_string(i) + "(:\n    pass\n";
  EXPECT_EQ(SyntaxTree::parse(src).errors("m.py", 3).size(), 3u);
}

TEST(PythonSyntax, NonUtf8IsAParseError) {
  SyntaxTree t = SyntaxTree::parse("x = 1\ns = 'caf\xE9'\n");
  EXPECT_EQ(
      t.errors("m.py"),
      Errors{"m.py:2:9: error: not UTF-8 (byte 0xE9): gridlock reads Python source as UTF-8"});
}

TEST(PythonSyntax, ByteOrderMarkKeepsOffsets) {
  SyntaxTree t = SyntaxTree::parse("\xEF\xBB\xBFx = 1\n");
  EXPECT_EQ(t.errors("m.py"), Errors{});
  TSNode stmt = ts_node_named_child(t.root(), 0);
  EXPECT_EQ(ts_node_start_byte(stmt), 3u);
  EXPECT_EQ(t.text(stmt), "x = 1");
}

TEST(PythonSyntax, Utf8Validation) {
  EXPECT_EQ(firstInvalidUtf8("plain"), std::string_view::npos);
  EXPECT_EQ(firstInvalidUtf8("caf\xC3\xA9 \xF0\x9F\x98\x80"), std::string_view::npos);
  EXPECT_EQ(firstInvalidUtf8("ab\xC0\xAF"), 2u);         // overlong '/'
  EXPECT_EQ(firstInvalidUtf8("a\xED\xA0\x80"), 1u);      // a surrogate
  EXPECT_EQ(firstInvalidUtf8("a\xF4\x90\x80\x80"), 1u);  // above U+10FFFF
  EXPECT_EQ(firstInvalidUtf8("abc\xE2\x82"), 3u);        // cut short
  EXPECT_EQ(firstInvalidUtf8("\x80"), 0u);               // a lone continuation byte
}

}  // namespace
}  // namespace gridlock::python
