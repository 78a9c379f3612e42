// A file with CRLF line endings keeps them on every line the rewrite writes: edited lines,
// inserted #includes (clang-format's include insertion), Collapse's declaration line. The
// expected output of a CRLF copy of a golden case is its LF expected output with CRLF endings.
#include "rewrite/rewrite_case.h"

#include "support/strings.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

std::string crlf(std::string text) {
  support::replaceAll(text, "\n", "\r\n");
  return text;
}

// Rewrites every file of the case's copy with CRLF endings.
void toCrlf(const Case& c) {
  std::vector<std::string> files = filesUnder(c.src);
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) writeFile(c.src + "/" + f, crlf(readFile(c.src + "/" + f)));
}

// "" when every file of the copy is its expected output with CRLF endings.
std::string compareWithCrlfExpected(const Case& c) {
  std::string diff;
  std::vector<std::string> files = filesUnder(kFixtures + "/" + c.name + "/input");
  EXPECT_FALSE(files.empty());
  for (const auto& f : files) {
    std::string golden = expectedFile(c.name, f);
    std::string have = readFile(c.src + "/" + f);
    if (have != crlf(golden)) diff += f + " differs:\n" + have + "\n";
  }
  return diff;
}

TEST(LineEndings, CrlfCopyOfCollapseGetsCrlfOnInsertedLines) {
  Case c("collapse");
  toCrlf(c);
  CommandResult r = c.run("rewrite", "--apply -q");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(compareWithCrlfExpected(c), "");
}

TEST(LineEndings, CrlfCopyOfLastGetsCrlfOnTheInsertedInclude) {
  Case c("last");
  toCrlf(c);
  CommandResult r = c.run("rewrite", "--apply -q");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(compareWithCrlfExpected(c), "");
}

TEST(LineEndings, CrlfExportedFixesApplyToTheSameFiles) {
  std::string tool = GRIDLOCK_APPLY_REPLACEMENTS;
  if (tool.empty() || tool.find("NOTFOUND") != std::string::npos)
    GTEST_SKIP() << "clang-apply-replacements not installed";
  Case c("collapse");
  toCrlf(c);
  fs::create_directories(c.dir + "/fixes");
  CommandResult r = c.run("rewrite", "-q --export-fixes " + c.dir + "/fixes/gridlock.yaml");
  ASSERT_EQ(r.status, 0) << r.err;
  CommandResult applied = runCommand(tool + " " + c.dir + "/fixes");
  ASSERT_EQ(applied.status, 0) << applied.out << applied.err;
  EXPECT_EQ(compareWithCrlfExpected(c), "");
}

// The diff carries the CRLF endings inside its lines: patch and git apply give the same files.
TEST(LineEndings, CrlfDiffAppliesWithPatchAndGitApply) {
  std::string patch = GRIDLOCK_PATCH, git = GRIDLOCK_GIT;
  if (patch.empty() || patch.find("NOTFOUND") != std::string::npos || git.empty() ||
      git.find("NOTFOUND") != std::string::npos)
    GTEST_SKIP() << "needs patch and git";
  for (const std::string& tool : {patch + " -s -p1 -i", git + " apply -p1"}) {
    SCOPED_TRACE(tool);
    Case c("last");
    toCrlf(c);
    CommandResult r = c.run("rewrite", "--diff -q");
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_NE(r.out.find("\r\n+#include"), std::string::npos) << r.out;
    writeFile(c.dir + "/change.diff", r.out);
    CommandResult applied =
        runCommand("cd " + c.src + " && " + tool + " " + c.dir + "/change.diff");
    ASSERT_EQ(applied.status, 0) << applied.out << applied.err;
    EXPECT_EQ(compareWithCrlfExpected(c), "");
  }
}

}  // namespace
}  // namespace gridlock::test
