// rewrite and the files no compile database lists (fixtures/rewrite/outside_db): a unit test
// calls a function whose parameter list the rewrite changes. Without its database the rewrite
// is refused and names the call; --allow-outside-db goes on and warns; --extra-db scans and
// rewrites the test too. Expected files come from the input's CHECK-FIXES annotations.
#include "support/run_command.h"

#include "rewrite/fix_annotations.h"
#include "support/strings.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

const std::string kCase = GRIDLOCK_SOURCE_DIR "/fixtures/rewrite/outside_db";
const std::vector<std::string> kSources = {"src/reduce.h", "src/reduce.cpp", "src/main.cpp",
                                           "tests/reduce_test.cpp", "bench/notes.txt"};

struct OutsideCase {
  std::string dir = makeTempDir("rewrite-outside-db");
  std::string src = dir + "/src";
  OutsideCase() {
    fs::copy(kCase + "/input", src, fs::copy_options::recursive);
    database("compile_commands.json.in", dir + "/build");
    database("tests_db.json.in", dir + "/build-tests");
  }
  ~OutsideCase() { fs::remove_all(dir); }
  void database(const std::string& in, const std::string& buildDir) const {
    fs::create_directories(buildDir);
    std::string db = readFile(kCase + "/" + in);
    support::replaceAll(db, "@SRC@", src);
    support::replaceAll(db, "@BUILD@", buildDir);
    support::replaceAll(db, "@MPI_INCLUDE@", GRIDLOCK_MPI_INCLUDE);
    writeFile(buildDir + "/compile_commands.json", db);
  }
  CommandResult rewrite(const std::string& extra) const {
    return runCommand(std::string(GRIDLOCK_BIN) + " rewrite -p " + dir + "/build --rules " + kCase +
                      "/gridlock.json --root " + src + " " + extra);
  }
  std::string input(const std::string& f) const { return readFile(kCase + "/input/" + f); }
  std::string now(const std::string& f) const { return readFile(src + "/" + f); }
};

const std::string kCall =
    "tests/reduce_test.cpp:10:13: error: names world_sum, whose parameter list this rewrite "
    "changes, in a file no compile database lists\n";

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(OutsideDb, ACallInAFileNoDatabaseListsRefusesTheRewrite) {
  OutsideCase c;
  for (const char* mode : {"--apply", "--diff"}) {
    CommandResult r = c.rewrite(mode);
    EXPECT_EQ(r.status, 2) << mode << r.err;
    // The call, once; not the comments, the string literal, or the text file naming it.
    EXPECT_NE(r.err.find(kCall), std::string::npos) << r.err;
    EXPECT_EQ(count(r.err, "names world_sum"), 1u) << r.err;
    EXPECT_NE(r.err.find("gridlock: error: rewrite refused; nothing written"), std::string::npos);
    EXPECT_EQ(r.out, "") << mode;  // no diff either
    for (const auto& f : kSources) EXPECT_EQ(c.now(f), c.input(f)) << f;
  }
}

TEST(OutsideDb, AllowOutsideDbRewritesTheDatabaseAndWarns) {
  OutsideCase c;
  CommandResult r = c.rewrite("--apply --allow-outside-db");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string warning = kCall;
  support::replaceAll(warning, ": error: ", ": warning: ");
  EXPECT_NE(r.err.find(warning), std::string::npos) << r.err;
  for (const char* f : {"src/reduce.h", "src/reduce.cpp", "src/main.cpp"})
    EXPECT_EQ(c.now(f), expectedOutput(c.input(f))) << f;
  EXPECT_EQ(c.now("tests/reduce_test.cpp"), c.input("tests/reduce_test.cpp"));
}

TEST(OutsideDb, ExtraDbRewritesTheTestsToo) {
  OutsideCase c;
  CommandResult r = c.rewrite("--apply --extra-db " + c.dir + "/build-tests");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("names world_sum"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("4 file(s) rewritten"), std::string::npos) << r.err;
  for (const auto& f : kSources) EXPECT_EQ(c.now(f), expectedOutput(c.input(f))) << f;
  // Nothing left to do, and nothing outside to name.
  CommandResult again = c.rewrite("--apply --extra-db " + c.dir + "/build-tests");
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.err.find("nothing to do"), std::string::npos) << again.err;
}

}  // namespace
}  // namespace gridlock::test
