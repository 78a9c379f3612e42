// `rewrite --diff` headers name files as git does, so `patch -p1` and `git apply` find them:
// a name with a space gets a tab after it (`--- a/my file.cpp\t`), a name with a quote, a
// backslash, a control or a non-ASCII byte is C-quoted (`--- "a/we\"ird.cpp"`).
#include "rewrite/rewrite_case.h"

#include "apply/unified_diff.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

bool found(const std::string& tool) {
  return !tool.empty() && tool.find("NOTFOUND") == std::string::npos;
}

// The two header lines of a one-line change of `file`.
std::string headers(const std::string& file) {
  std::string diff = apply::fileDiff(file, "a\n", "b\n");
  EXPECT_EQ(diff.substr(diff.find("@@")), "@@ -1,1 +1,1 @@\n-a\n+b\n");
  return diff.substr(0, diff.find("@@"));
}

TEST(DiffNames, HeadersAreSpelledAsGitSpellsThem) {
  EXPECT_EQ(headers("plain.cpp"), "--- a/plain.cpp\n+++ b/plain.cpp\n");
  EXPECT_EQ(headers("my file.cpp"), "--- a/my file.cpp\t\n+++ b/my file.cpp\t\n");
  EXPECT_EQ(headers("we\"ird\\.cpp"), "--- \"a/we\\\"ird\\\\.cpp\"\n+++ \"b/we\\\"ird\\\\.cpp\"\n");
  EXPECT_EQ(headers("tab\there.cpp"), "--- \"a/tab\\there.cpp\"\n+++ \"b/tab\\there.cpp\"\n");
  EXPECT_EQ(headers("\xc3\xa9 t.cpp"),
            "--- \"a/\\303\\251 t.cpp\"\t\n+++ \"b/\\303\\251 t.cpp\"\t\n");
}

// A tree with the file `name` (old contents), the diff to its new contents applied by `tool`.
void expectApplies(const std::string& name, const std::string& command) {
  SCOPED_TRACE(name + " with " + command);
  std::string dir = makeTempDir("diff-name");
  fs::create_directories(dir + "/tree/sub dir");
  std::string file = "sub dir/" + name;
  writeFile(dir + "/tree/" + file, "one\ntwo\nthree\n");
  writeFile(dir + "/change.diff", apply::fileDiff(file, "one\ntwo\nthree\n", "one\n2\nthree\n"));
  CommandResult r =
      runCommand("cd '" + dir + "/tree' && " + command + " '" + dir + "/change.diff'");
  EXPECT_EQ(r.status, 0) << r.out << r.err << readFile(dir + "/change.diff");
  EXPECT_EQ(readFile(dir + "/tree/" + file), "one\n2\nthree\n");
  EXPECT_EQ(filesUnder(dir + "/tree"), std::vector<std::string>{file});
  fs::remove_all(dir);
}

TEST(DiffNames, PatchAndGitApplyFindFilesWithSpacesQuotesAndNonAscii) {
  std::string patch = GRIDLOCK_PATCH, git = GRIDLOCK_GIT;
  if (!found(patch) || !found(git)) GTEST_SKIP() << "needs patch and git";
  for (const std::string name :
       {"my file.cpp", "we\"ird.cpp", "back\\slash.cpp", "\xc3\xa9t\xc3\xa9 file.cpp"}) {
    expectApplies(name, patch + " -s -p1 -i");
    expectApplies(name, git + " apply -p1");
  }
}

// The golden mpi case with halo.cpp named "my halo.cpp": its diff applies with both tools.
class SpacedCase {
 public:
  SpacedCase() : c("mpi") {
    fs::rename(c.src + "/halo.cpp", c.src + "/my halo.cpp");
    std::string db = "[\n";
    for (const std::string tu : {"my halo.cpp", "main.cpp"})
      db += std::string(tu == "main.cpp" ? ",\n" : "") + "{\"directory\": \"" + c.build +
            "\", \"file\": \"" + c.src + "/" + tu +
            "\", \"arguments\": [\"/usr/bin/clang++-19\", \"-std=c++20\", \"-I" + c.src +
            "\", \"-I" GRIDLOCK_MPI_INCLUDE "\", \"-c\", \"" + c.src + "/" + tu + "\"]}";
    writeFile(c.build + "/compile_commands.json", db + "\n]\n");
  }
  std::string expectedDifference() const {
    std::string diff;
    if (readFile(c.src + "/my halo.cpp") != expectedFile("mpi", "halo.cpp"))
      diff += "my halo.cpp\n";
    if (readFile(c.src + "/halo.h") != expectedFile("mpi", "halo.h")) diff += "halo.h\n";
    if (readFile(c.src + "/main.cpp") != expectedFile("mpi", "main.cpp")) diff += "main.cpp\n";
    if (filesUnder(c.src) != std::vector<std::string>{"halo.h", "main.cpp", "my halo.cpp"})
      diff += "the set of files changed\n";
    return diff;
  }
  Case c;
};

TEST(DiffNames, DiffOfAFileNamedWithASpaceAppliesWithPatchAndGitApply) {
  std::string patch = GRIDLOCK_PATCH, git = GRIDLOCK_GIT;
  if (!found(patch) || !found(git)) GTEST_SKIP() << "needs patch and git";
  for (const std::string& tool : {patch + " -s -p1 -i", git + " apply -p1"}) {
    SCOPED_TRACE(tool);
    SpacedCase s;
    CommandResult r = s.c.run("rewrite", "--diff -q");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("--- a/my halo.cpp\t\n+++ b/my halo.cpp\t\n"), std::string::npos) << r.out;
    writeFile(s.c.dir + "/change.diff", r.out);
    CommandResult applied =
        runCommand("cd " + s.c.src + " && " + tool + " " + s.c.dir + "/change.diff");
    ASSERT_EQ(applied.status, 0) << applied.out << applied.err << r.out;
    EXPECT_EQ(s.expectedDifference(), "");
  }
}

}  // namespace
}  // namespace gridlock::test
