// The comparison of pyright's diagnostics, on hand-made reports: what is read, what is kept,
// and what counts as new after a change (tool/rewrite/python/checks).
#include "rewrite/python/checks/diagnostic_diff.h"
#include "rewrite/python/checks/pyright_json.h"
#include "rewrite/python/checks/tree_copy.h"
#include "rewrite/python/checks/verify.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace gridlock::rewrite::py::checks {
namespace {

Diagnostic undefinedX(const std::string& file, int line) {
  return {file,
          line,
          1,
          DiagnosticKind::UndefinedName,
          "reportUndefinedVariable",
          "\"x\" is not defined"};
}

TEST(PyrightJson, KeepsTheComparedKindsWithPathsUnderTheRoot) {
  std::string json = R"({"version": "1.1.414", "generalDiagnostics": [
    {"file": "/t/pkg/a.py", "severity": "error", "message": "\"x\" is not defined",
     "range": {"start": {"line": 2, "character": 4}, "end": {"line": 2, "character": 5}},
     "rule": "reportUndefinedVariable"},
    {"file": "/t/pkg/a.py", "severity": "error", "message": "\"y\" is possibly unbound",
     "range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 1}},
     "rule": "reportPossiblyUnbound"},
    {"file": "/t/pkg/b.py", "severity": "error", "message": "Expected expression",
     "range": {"start": {"line": 0, "character": 7}, "end": {"line": 0, "character": 8}}},
    {"file": "/t/pkg/b.py", "severity": "warning", "message": "Unsupported escape sequence",
     "range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 2}}},
    {"file": "/elsewhere/c.py", "severity": "warning", "message": "Expected 1 positional argument",
     "range": {"start": {"line": 9, "character": 10}, "end": {"line": 9, "character": 11}},
     "rule": "reportCallIssue"}],
    "summary": {"filesAnalyzed": 3, "errorCount": 3}})";
  PyrightReport r = parsePyrightJson(json, "/t");
  EXPECT_EQ(r.version, "1.1.414");
  EXPECT_EQ(r.filesAnalyzed, 3);
  EXPECT_EQ(r.otherDiagnostics, 2);  // possibly unbound, and a warning without a rule
  ASSERT_EQ(r.diagnostics.size(), 3u);
  EXPECT_EQ(describe(r.diagnostics[0]),
            "pkg/a.py:3:5: undefined-name: \"x\" is not defined [reportUndefinedVariable]");
  EXPECT_EQ(describe(r.diagnostics[1]), "pkg/b.py:1:8: syntax: Expected expression");
  EXPECT_EQ(describe(r.diagnostics[2]),
            "/elsewhere/c.py:10:11: call-issue: Expected 1 positional argument [reportCallIssue]");
}

TEST(PyrightJson, AnythingButItsReportIsAnError) {
  EXPECT_THROW(parsePyrightJson("No configuration file found.", "/t"), std::runtime_error);
  EXPECT_THROW(parsePyrightJson(R"({"summary": {}})", "/t"), std::runtime_error);
  try {
    parsePyrightJson(R"({"generalDiagnostics": [{"file": "/t/a.py", "severity": "error",
                         "message": "m"}]})",
                     "/t");
    FAIL() << "a diagnostic without a range was read";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("pyright's JSON report is malformed: ", 0), 0u)
        << e.what();
  }
}

TEST(DiagnosticText, ContinuationLinesAreJoinedWithoutTheirIndentation) {
  // pyright 1.1.414 indents with two no-break spaces.
  Diagnostic d{"pkg/a.py",
               14,
               7,
               DiagnosticKind::AttributeAccess,
               "reportAttributeAccessIssue",
               "Cannot access attribute \"y\" for class \"C\"\n\xC2\xA0\xC2\xA0"
               "Attribute \"y\" is unknown"};
  EXPECT_EQ(describe(d),
            "pkg/a.py:14:7: attribute-access: Cannot access attribute \"y\" for class \"C\"; "
            "Attribute \"y\" is unknown [reportAttributeAccessIssue]");
}

TEST(DiagnosticKey, LineNumbersInTheMessageAreNotPartOfIt) {
  EXPECT_EQ(normalisedMessage("Class \"A\" is obscured by a declaration on line 12"),
            "Class \"A\" is obscured by a declaration on line #");
  EXPECT_EQ(normalisedMessage("see lines 3-4 and Line 7"), "see lines # and Line #");
  EXPECT_EQ(normalisedMessage("declared in pkg/x.py:12:5 and y.pyi:3"),
            "declared in pkg/x.py:# and y.pyi:#");
  EXPECT_EQ(normalisedMessage("Expected 2 positional arguments"),
            "Expected 2 positional arguments");
  EXPECT_EQ(normalisedMessage("\"inline 3\" is not defined"), "\"inline 3\" is not defined");
}

TEST(DiagnosticDiff, ALineShiftIsNothingNew) {
  EXPECT_TRUE(newDiagnostics({undefinedX("a.py", 3)}, {undefinedX("a.py", 9)}).empty());
}

TEST(DiagnosticDiff, AKeyFoundMoreOftenIsNewWithEveryPlaceItIsFound) {
  std::vector<NewDiagnostic> added =
      newDiagnostics({undefinedX("a.py", 3)},
                     {undefinedX("a.py", 9), undefinedX("b.py", 2), undefinedX("a.py", 5)});
  ASSERT_EQ(added.size(), 2u);
  EXPECT_EQ(added[0].before, 1);
  ASSERT_EQ(added[0].at.size(), 2u);
  EXPECT_EQ(describe(added[0]),
            "a.py:5:1: undefined-name: \"x\" is not defined [reportUndefinedVariable] "
            "(1 before, 2 after; also line 9)");
  EXPECT_EQ(added[1].before, 0);
  EXPECT_EQ(describe(added[1]),
            "b.py:2:1: undefined-name: \"x\" is not defined [reportUndefinedVariable]");
}

TEST(DiagnosticDiff, AnotherRuleOrMessageIsAnotherKey) {
  Diagnostic call{"a.py",
                  4,
                  2,
                  DiagnosticKind::CallIssue,
                  "reportCallIssue",
                  "Expected 2 positional arguments"};
  Diagnostic call3 = call;
  call3.message = "Expected 3 positional arguments";
  std::vector<NewDiagnostic> added = newDiagnostics({call, undefinedX("a.py", 1)}, {call3, call});
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0].at.front().message, "Expected 3 positional arguments");
}

TEST(TreeCopyPaths, OnlyRelativePathsThatStayInside) {
  EXPECT_TRUE(insideTree("pkg/a.py"));
  EXPECT_TRUE(insideTree("pkg/../b.py"));
  EXPECT_FALSE(insideTree("../b.py"));
  EXPECT_FALSE(insideTree("pkg/../../b.py"));
  EXPECT_FALSE(insideTree("/etc/passwd"));
  EXPECT_FALSE(insideTree(""));
  EXPECT_FALSE(insideTree("pkg/.."));
}

TEST(RollBack, AChangedFileWithItsFirstFailureOrEveryChangedFileForACaller) {
  Result r;
  FileFailure compiled{
      "pkg/a.py", true, "pkg/a.py:2:1: SyntaxError: 'return' outside function", {}};
  r.failures = {compiled};
  std::vector<FileChange> changes{{"pkg/a.py", "", ""}, {"pkg/./b.py", "", ""}};
  EXPECT_EQ(filesToRollBack(r, changes),
            (std::map<std::string, std::string>{
                {"pkg/a.py", "pkg/a.py:2:1: SyntaxError: 'return' outside function"}}));
  FileFailure caller{"pkg/c.py", false, std::nullopt, {{0, {undefinedX("pkg/c.py", 4)}}}};
  r.failures.push_back(caller);
  std::string why =
      "a file the change did not touch has a new diagnostic: pkg/c.py:4:1: "
      "undefined-name: \"x\" is not defined [reportUndefinedVariable]";
  EXPECT_EQ(filesToRollBack(r, changes),
            (std::map<std::string, std::string>{
                {"pkg/a.py", "pkg/a.py:2:1: SyntaxError: 'return' outside function"},
                {"pkg/b.py", why}}));
}

}  // namespace
}  // namespace gridlock::rewrite::py::checks
