// The Python rewrite's independent check (rewrite/python/checks's pyright comparison) on
// fixtures/rewrite/py_rollback: a substitution that compiles and re-scans cleanly but gives
// pyright a new error is rolled back in its file alone; without pyright the rewrite is refused
// unless --python-checker=warn says to go on with the compile check alone.
#include "rewrite/rewrite_case.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace gridlock::test {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(PyRewriteChecker, NewPyrightErrorRollsBackItsFileAlone) {
  Case c("py_rollback");
  CommandResult r = c.run("rewrite", "--apply");
  ASSERT_EQ(r.status, 0) << r.err;
  // bad.py as it was (no CHECK-FIXES), good.py rewritten.
  EXPECT_EQ(c.compareWithExpected(), "");
  // pyright reads the rewritten file: the unused import and a blank line above went, so the
  // read's line 9 is line 7 there.
  EXPECT_TRUE(has(r.err,
                  "gridlock: rewrite: edits in pkg/bad.py rolled back: pkg/bad.py:7:25: "
                  "attribute-access: Cannot access attribute \"size\" for class \"str\""))
      << r.err;
  EXPECT_FALSE(has(r.err, "edits in pkg/good.py rolled back")) << r.err;
  EXPECT_TRUE(has(r.err, "1 substituted")) << r.err;
  EXPECT_TRUE(has(r.err, "1 left (compile_error 1)")) << r.err;
  // The check holds the file back again, so a second run has nothing to do.
  CommandResult again = c.run("rewrite", "--apply");
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_TRUE(has(again.err, "nothing to do")) << again.err;
  EXPECT_EQ(c.compareWithExpected(), "");
}

TEST(PyRewriteChecker, NoPyrightRefusesTheRewrite) {
  Case c("py_rollback");
  CommandResult r = c.run("rewrite", "--apply", "GRIDLOCK_PYRIGHT=" + c.dir + "/no-pyright.js");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err,
                  "gridlock: error: the independent checker could not check the Python "
                  "change: GRIDLOCK_PYRIGHT names " +
                      c.dir + "/no-pyright.js, which is not a file"))
      << r.err;
  EXPECT_TRUE(has(r.err, "--python-checker=warn")) << r.err;
  EXPECT_EQ(c.compareWithInput(), "");
}

// pyright's absence is found before anything is planned: after the scan (a progress line per
// unit: the fixture's 4 modules), the refusal; no plan, so no second scan of the edited tree
// (which verifying a plan runs before it asks pyright), and nothing is written.
TEST(PyRewriteChecker, NoPyrightIsFoundBeforePlanning) {
  Case c("py_rollback");
  CommandResult r =
      c.run("rewrite", "--diff",
            "GRIDLOCK_PROGRESS_INTERVAL=0 GRIDLOCK_PYRIGHT=" + c.dir + "/no-pyright.js");
  EXPECT_EQ(r.status, 2) << r.err;
  std::vector<std::string> lines;
  std::istringstream in(r.err);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 5u) << r.err;
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(lines[i].rfind("gridlock: " + std::to_string(i + 1) + "/4 translation units, ", 0),
              0u)
        << r.err;
  EXPECT_EQ(lines[4],
            "gridlock: error: the independent checker could not check the Python change: "
            "GRIDLOCK_PYRIGHT names " +
                c.dir +
                "/no-pyright.js, which is not a file; nothing written (--python-checker=warn "
                "goes on with the compile check alone)");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(c.compareWithInput(), "");
}

TEST(PyRewriteChecker, NoPyrightWithWarnChecksByCompilingOnly) {
  Case c("py_rollback");
  CommandResult r = c.run("rewrite", "--apply --python-checker=warn",
                          "GRIDLOCK_PYRIGHT=" + c.dir + "/no-pyright.js");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.err, "gridlock: warning: [python-checker-missing] GRIDLOCK_PYRIGHT names " +
                             c.dir +
                             "/no-pyright.js, which is not a file; the change was "
                             "checked by compiling it only"))
      << r.err;
  // Compiling alone cannot see what pyright sees: both files are rewritten.
  EXPECT_TRUE(has(readFile(c.src + "/pkg/bad.py"), "return x / tp_group.size()"));
  EXPECT_TRUE(has(r.err, "2 substituted")) << r.err;
}

TEST(PyRewriteChecker, UnknownCheckerModeIsBadInput) {
  Case c("py_rollback");
  CommandResult r = c.run("rewrite", "--apply --python-checker=maybe");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "--python-checker")) << r.err;
  EXPECT_EQ(c.compareWithInput(), "");
}

}  // namespace
}  // namespace gridlock::test
