// nvcc's splitting of lists, options files and -Xcompiler text; each expectation is what
// nvcc 13 --dryrun showed for the same input.
#include "frontend/nvcc_lex.h"

#include <gtest/gtest.h>

namespace gridlock::frontend {
namespace {

using Words = std::vector<std::string>;

TEST(NvccLex, PathListsDropQuotesAndKeepBackslashes) {
  EXPECT_EQ(splitNvccList("a,b", NvccListStyle::Path), (Words{"a", "b"}));
  EXPECT_EQ(splitNvccList("x\"a,b\"y", NvccListStyle::Path), (Words{"xa,by"}));
  EXPECT_EQ(splitNvccList("a\\,b", NvccListStyle::Path), (Words{"a\\", "b"}));
  EXPECT_EQ(splitNvccList("a,,b,", NvccListStyle::Path), (Words{"a", "b"}));
  EXPECT_EQ(splitNvccList("", NvccListStyle::Path), Words{});
}

TEST(NvccLex, TextListsKeepQuotesAndTakeEscapes) {
  EXPECT_EQ(splitNvccList("A=1,B=2", NvccListStyle::Text), (Words{"A=1", "B=2"}));
  EXPECT_EQ(splitNvccList("A=1\\,2", NvccListStyle::Text), (Words{"A=1,2"}));
  EXPECT_EQ(splitNvccList("A=\\\\,b", NvccListStyle::Text), (Words{"A=\\", "b"}));
  EXPECT_EQ(splitNvccList("A=\"x,y\"", NvccListStyle::Text), (Words{"A=\"x,y\""}));
  EXPECT_EQ(splitNvccList("A(x)=f(x\\,1)", NvccListStyle::Text), (Words{"A(x)=f(x,1)"}));
}

TEST(NvccLex, OptionsFileQuotesAndEscapes) {
  Tokens t = tokenizeNvccOptionsFile("-I\"a b\" \"-Ic d\" -Ig\\ h\n\t-DX=\"1 2\"\r\n-I'e f'");
  EXPECT_EQ(t.words, (Words{"-Ia b", "-Ic d", "-Ig h", "-DX=1 2", "-I'e", "f'"}));
  EXPECT_EQ(t.error, "");
  EXPECT_EQ(tokenizeNvccOptionsFile("-I\"a\\\"b\" -Ic\\d").words, (Words{"-Ia\"b", "-Icd"}));
  EXPECT_EQ(tokenizeNvccOptionsFile("\"-Iunterminated\n").error, "Stray '\"' character");
  EXPECT_EQ(tokenizeNvccOptionsFile("-Ix\\").error, "Stray '' character");
  EXPECT_EQ(tokenizeNvccOptionsFile("").words, Words{});
}

TEST(NvccLex, ShellWordsAsTheHostCompilerGetsThem) {
  EXPECT_EQ(splitShellWords("-DX=\"a,b\"").words, (Words{"-DX=a,b"}));
  EXPECT_EQ(splitShellWords("-DX='a b' -Wall").words, (Words{"-DX=a b", "-Wall"}));
  EXPECT_EQ(splitShellWords("-DX=a\\b").words, (Words{"-DX=ab"}));
  EXPECT_EQ(splitShellWords("-DX=\"a\\\"b\\c\"").words, (Words{"-DX=a\"b\\c"}));
  EXPECT_EQ(splitShellWords("'unterminated").error, "unterminated '");
}

}  // namespace
}  // namespace gridlock::frontend
