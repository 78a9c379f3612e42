// Each suppression form on plain text: which lines an allow covers, names, literals that only
// look like allows, and the malformed ones that are reported. (docs/suppressions.md)
#include "frontend/suppressions.h"

#include <gtest/gtest.h>

namespace gridlock::frontend {
namespace {

const ReadName kTp{"tp", "ps::get_tp"};
const ReadName kDp{"dp", "ps::get_dp"};

// The reason of the allow covering a one-line read on `line`, or "-".
std::string covers(const FileSuppressions& s, unsigned line, const ReadName& r = kTp) {
  const AllowComment* a = coveringAllow(s, line, line, r);
  return a ? a->reason : "-";
}

TEST(Suppressions, SameLineAndAloneOnTheLineAbove) {
  FileSuppressions s = findSuppressions(
      "a();\n"
      "get_tp();  // gridlock: allow(same line)\n"
      "// gridlock: allow(line above)\n"
      "get_tp();\n"
      "get_tp();\n"
      "b();  // gridlock: allow(trailing)\n"
      "get_tp();\n");
  ASSERT_EQ(s.allows.size(), 3u);
  EXPECT_TRUE(s.bad.empty());
  EXPECT_EQ(covers(s, 1), "-");
  EXPECT_EQ(covers(s, 2), "same line");
  EXPECT_EQ(covers(s, 3), "line above");  // its own line
  EXPECT_EQ(covers(s, 4), "line above");
  EXPECT_EQ(covers(s, 5), "-");  // two lines below
  EXPECT_EQ(covers(s, 7), "-");  // a trailing allow covers its own line only
}

TEST(Suppressions, NextLine) {
  FileSuppressions s = findSuppressions(
      "get_tp();  // gridlock: allow-next-line(next)\n"
      "get_tp();\n"
      "get_tp();\n");
  EXPECT_EQ(covers(s, 1), "-");
  EXPECT_EQ(covers(s, 2), "next");
  EXPECT_EQ(covers(s, 3), "-");
}

TEST(Suppressions, BeginEndBlocksNest) {
  FileSuppressions s = findSuppressions(
      "// gridlock: allow-begin(outer)\n"  // 1
      "get_tp();\n"                        // 2
      "// gridlock: allow-begin(inner)\n"  // 3
      "get_tp();\n"                        // 4
      "// gridlock: allow-end\n"           // 5
      "get_tp();\n"                        // 6
      "// gridlock: allow-end\n"           // 7
      "get_tp();\n");                      // 8
  EXPECT_TRUE(s.bad.empty());
  EXPECT_EQ(covers(s, 2), "outer");
  EXPECT_EQ(covers(s, 4), "inner");
  EXPECT_EQ(covers(s, 6), "outer");
  EXPECT_EQ(covers(s, 8), "-");
}

TEST(Suppressions, WholeFile) {
  FileSuppressions s = findSuppressions(
      "get_tp();\n"
      "// gridlock: allow-file(legacy entry point)\n"
      "get_tp();\n");
  EXPECT_EQ(covers(s, 1), "legacy entry point");
  EXPECT_EQ(covers(s, 3), "legacy entry point");
}

TEST(Suppressions, NamedAllowsCoverOnlyWhatTheyName) {
  FileSuppressions s = findSuppressions(
      "x(get_tp(), get_dp());  // gridlock: allow(tp: only tp)\n"
      "x(get_tp(), get_dp());  // gridlock: allow(ps::get_dp: qualified)\n"
      "x(get_tp(), get_dp());  // gridlock: allow(get_dp, tp: both)\n"
      "x(get_tp(), get_dp());  // gridlock: allow(see bug 12: a reason with a colon)\n"
      "// gridlock: allow-file(world: nothing here reads world)\n");
  ASSERT_EQ(s.allows.size(), 5u);
  EXPECT_EQ(s.allows[0].names, std::vector<std::string>{"tp"});
  EXPECT_EQ(covers(s, 1, kTp), "only tp");
  EXPECT_EQ(covers(s, 1, kDp), "-");
  EXPECT_EQ(covers(s, 2, kTp), "-");
  EXPECT_EQ(covers(s, 2, kDp), "qualified");
  EXPECT_EQ(covers(s, 3, kTp), "both");
  EXPECT_EQ(covers(s, 3, kDp), "both");
  EXPECT_TRUE(s.allows[3].names.empty());
  EXPECT_EQ(covers(s, 4, kDp), "see bug 12: a reason with a colon");
  EXPECT_EQ(covers(s, 6, {"world", "MPI_COMM_WORLD"}), "nothing here reads world");
  EXPECT_EQ(covers(s, 6, kTp), "-");
  // A macro rule is named by the macro.
  FileSuppressions m =
      findSuppressions("f(MPI_COMM_WORLD);  // gridlock: allow(MPI_COMM_WORLD: logged)\n");
  EXPECT_EQ(covers(m, 1, {"world", "MPI_COMM_WORLD"}), "logged");
  EXPECT_EQ(covers(m, 1, kTp), "-");
}

TEST(Suppressions, BlockCommentsToo) {
  FileSuppressions s = findSuppressions(
      "/* gridlock: allow(inline) */ get_tp();\n"
      "/* gridlock: allow-next-line(tp: block next) */\n"
      "get_tp();\n"
      "/*\n"
      " * gridlock: allow-begin(spans lines)\n"
      " */\n"
      "get_tp();\n"
      "/* gridlock: allow-end */\n");
  EXPECT_TRUE(s.bad.empty());
  EXPECT_EQ(covers(s, 1), "inline");
  EXPECT_EQ(covers(s, 3), "block next");
  EXPECT_EQ(covers(s, 3, kDp), "-");
  EXPECT_EQ(covers(s, 7), "spans lines");
}

TEST(Suppressions, LiteralsAreNotComments) {
  FileSuppressions s = findSuppressions(
      "const char* s = \"// gridlock: allow(in a string)\"; get_tp();\n"
      "auto r = R\"x(\" /* gridlock: allow(in a raw string) */)x\"; get_tp();\n"
      "char q = '\"'; get_tp();  // gridlock: allow(after a quote char)\n"
      "int n = 1'000; get_tp();  // gridlock: allow(after a digit separator)\n"
      "auto u = u8R\"(\n"
      "// gridlock: allow-file(in a raw string over lines)\n"
      ")\";\n");
  ASSERT_EQ(s.allows.size(), 2u);
  EXPECT_EQ(covers(s, 1), "-");
  EXPECT_EQ(covers(s, 2), "-");
  EXPECT_EQ(covers(s, 3), "after a quote char");
  EXPECT_EQ(covers(s, 4), "after a digit separator");
}

// A statement over several lines is covered by an allow above (or on) its first line.
TEST(Suppressions, StatementSpanningLines) {
  FileSuppressions s = findSuppressions(
      "// gridlock: allow(whole call)\n"           // 1
      "call(a,\n"                                  // 2
      "     get_tp());\n"                          // 3
      "call(b,  // gridlock: allow(first line)\n"  // 4
      "     get_tp());\n"                          // 5
      "// gridlock: allow-next-line(next)\n"       // 6
      "call(c,\n"                                  // 7
      "     get_tp());\n"                          // 8
      "call(d,\n"                                  // 9
      "     get_tp());\n");                        // 10
  EXPECT_EQ(coveringAllow(s, 3, 2, kTp)->reason, "whole call");
  EXPECT_EQ(coveringAllow(s, 5, 4, kTp)->reason, "first line");
  EXPECT_EQ(coveringAllow(s, 8, 7, kTp)->reason, "next");
  EXPECT_EQ(coveringAllow(s, 10, 9, kTp), nullptr);
  EXPECT_EQ(coveringAllow(s, 3, 3, kTp), nullptr);  // not known to be one statement
}

TEST(Suppressions, MalformedOnesAreReportedAndIgnored) {
  FileSuppressions s = findSuppressions(
      "get_tp();  // gridlock: allow\n"                 // 1
      "get_tp();  // gridlock: allow()\n"               // 2
      "get_tp();  // gridlock: allow(tp: )\n"           // 3
      "get_tp();  // gridlock: allow-nextline(typo)\n"  // 4
      "// gridlock: allow-end\n"                        // 5
      "// gridlock: allow-begin(never ended)\n"         // 6
      "get_tp();\n");                                   // 7
  EXPECT_TRUE(s.allows.empty());
  ASSERT_EQ(s.bad.size(), 6u);
  const std::string noReason =
      "suppression without a reason is ignored: write // gridlock: allow(why this read is "
      "deliberate)";
  EXPECT_EQ(s.bad[0].line, 1u);
  EXPECT_EQ(s.bad[0].column, 12u);  // after "get_tp();  "
  EXPECT_EQ(s.bad[0].text, "// gridlock: allow");
  EXPECT_EQ(s.bad[0].problem, noReason);
  EXPECT_EQ(s.bad[1].problem, noReason);
  EXPECT_EQ(s.bad[2].problem, noReason);
  EXPECT_EQ(s.bad[3].problem,
            "unknown suppression 'allow-nextline': write allow, allow-next-line, "
            "allow-begin ... allow-end or allow-file");
  EXPECT_EQ(s.bad[3].column, 12u);
  EXPECT_EQ(s.bad[4].line, 5u);
  EXPECT_EQ(s.bad[4].column, 1u);
  EXPECT_EQ(s.bad[4].problem, "allow-end without an allow-begin");
  EXPECT_EQ(s.bad[5].line, 6u);
  EXPECT_EQ(s.bad[5].column, 1u);
  EXPECT_EQ(s.bad[5].problem, "allow-begin without an allow-end is ignored");
  for (unsigned line = 1; line <= 7; ++line) EXPECT_EQ(covers(s, line), "-") << line;
}

// A suppression spelt almost right allows nothing: it is reported, never silently a comment
// (the user believes the read allowed, the gate counts it). Python's `#` comments alike. Prose
// that mentions gridlock, or `gridlock:` before another word, is no suppression.
TEST(Suppressions, MisspeltOnesAreReported) {
  std::vector<SourceComment> comments = {
      {1, 11, 1, false, "# gridlock: alow(typo)"},
      {2, 1, 2, true, "# GRIDLOCK: allow(upper case)"},
      {3, 11, 3, false, "# gridlock: Allow(capital)"},
      {4, 11, 4, false, "# gridlock : allow(blank before the colon)"},
      {5, 1, 5, true, "# Gridlock: ALLOW-FILE(shouting)"},
      {6, 1, 6, true, "# what gridlock allows is said in the docs"},
      {7, 1, 7, true, "# gridlock: see docs/suppressions.md"},
      {8, 11, 8, false, "# gridlock: allow(right)"},
  };
  FileSuppressions s = suppressionsOf(comments);
  ASSERT_EQ(s.allows.size(), 1u);
  EXPECT_EQ(s.allows[0].line, 8u);
  ASSERT_EQ(s.bad.size(), 5u);
  auto problem = [](const std::string& spelled, const std::string& form) {
    return "misspelt suppression '" + spelled + "' allows nothing: write 'gridlock: " + form +
           "(...)', in lower case with ':' right after gridlock";
  };
  EXPECT_EQ(s.bad[0].line, 1u);
  EXPECT_EQ(s.bad[0].column, 11u);
  EXPECT_EQ(s.bad[0].text, "# gridlock: alow(typo)");
  EXPECT_EQ(s.bad[0].problem, problem("gridlock: alow", "allow"));
  EXPECT_EQ(s.bad[1].problem, problem("GRIDLOCK: allow", "allow"));
  EXPECT_EQ(s.bad[2].problem, problem("gridlock: Allow", "allow"));
  EXPECT_EQ(s.bad[3].problem, problem("gridlock : allow", "allow"));
  EXPECT_EQ(s.bad[4].line, 5u);
  EXPECT_EQ(s.bad[4].problem, problem("Gridlock: ALLOW-FILE", "allow-file"));
  for (unsigned line = 1; line <= 7; ++line) EXPECT_EQ(covers(s, line), "-") << line;
  EXPECT_EQ(covers(s, 8), "right");
  // The same in C++ comments.
  FileSuppressions cpp = findSuppressions(
      "get_tp();  // gridlock: alow(typo)\n"
      "/* GRIDLOCK: allow(upper case) */ get_tp();\n");
  ASSERT_EQ(cpp.bad.size(), 2u);
  EXPECT_EQ(cpp.bad[0].problem, problem("gridlock: alow", "allow"));
  EXPECT_EQ(cpp.bad[1].problem, problem("GRIDLOCK: allow", "allow"));
  EXPECT_EQ(cpp.bad[1].column, 1u);
}

}  // namespace
}  // namespace gridlock::frontend
