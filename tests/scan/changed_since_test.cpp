// `gate --changed-since REV`: only the files a git diff touches are checked (a header through
// the units that include it); other files' keys are never reported as fell and stay byte for
// byte, with --update too. (docs/scan.md, "Gate")
#include "scan/small_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace gridlock::test {
namespace {

struct ChangedSince : ::testing::Test {
  void SetUp() override {
    ASSERT_EQ(p.runIn(".", "gate --update").status, 0);
    // b_one's count raised to 2: a full run would report it as fell.
    auto j = nlohmann::ordered_json::parse(readFile(p.baseline()));
    for (auto& e : j["entries"])
      if (e["enclosing"] == "b_one") e["count"] = 2;
    j["total"] = 6;
    writeFile(p.baseline(), j.dump(2) + "\n");
    writeFile(p.dir() + "/.gitignore", "build/\n");
    ASSERT_EQ(git("init -q && " + kGit + " add -A && " + kGit + " commit -q -m base").status, 0);
    committed = readFile(p.baseline());
  }
  CommandResult git(const std::string& args) {
    return runCommand("cd " + shellQuote(p.dir()) + " && " + kGit + " " + args);
  }
  const std::string kGit = "git -c user.name=t -c user.email=t@t -c init.defaultBranch=main";
  SmallProject p{"changed-since"};
  std::string committed;
};

// shared.h changed: a.cpp, the one unit including it, is checked; b.cpp's key, which a full
// run would report as fell, is left alone.
TEST_F(ChangedSince, HeaderIsCheckedThroughTheUnitsIncludingIt) {
  p.write("core/shared.h",
          "#pragma once\n"
          "#include \"../ps.h\"\n"
          "inline void shared() { ps::get_dp(); ps::get_dp(); }\n");
  CommandResult r = p.runIn(".", "gate --changed-since HEAD");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out,
            "gate: 1 file(s) changed since HEAD; 1 translation unit(s) to check\n"
            "src/core/shared.h:3:28: error: global reads rose from 1 to 2 here: global dp group "
            "from ps::get_dp in shared; fix: thread a group parameter [gridlock-gate]\n"
            "src/core/shared.h:3:42: error: global reads rose from 1 to 2 here: global dp group "
            "from ps::get_dp in shared; fix: thread a group parameter [gridlock-gate]\n"
            "rose: src/core/shared.h | shared | ps::get_dp: 1 -> 2\n"
            "gate: 1 key(s) of files this run did not scan left as they are\n"
            "gate: FAILED: global reads rose (6 in the baseline, 7 now)\n"
            "gate: remove each read above (its fix says how), or allow a deliberate one with "
            "`// gridlock: allow(reason)` (docs/suppressions.md)\n");
  EXPECT_EQ(readFile(p.baseline()), committed);
}

// a_one's read removed: without --update the baseline is not written; with it only a.cpp's
// key changes, and b_one keeps its count of 2.
TEST_F(ChangedSince, UpdateWritesOnlyItsOwnKeys) {
  p.write("core/a.cpp",
          "#include \"../ps.h\"\n"
          "#include \"shared.h\"\n"
          "void a_one() {}\n"
          "void a_two() {\n"
          "  ps::get_tp();\n"
          "  ps::get_dp();\n"
          "}\n");
  CommandResult check = p.runIn(".", "gate --changed-since HEAD");
  EXPECT_EQ(check.status, 0) << check.err;
  EXPECT_NE(check.out.find("fell: src/core/a.cpp | a_one | ps::get_tp: 1 -> 0\n"),
            std::string::npos)
      << check.out;
  EXPECT_EQ(check.out.find("b_one"), std::string::npos) << check.out;
  EXPECT_EQ(readFile(p.baseline()), committed);

  CommandResult update = p.runIn(".", "gate --changed-since HEAD --update");
  EXPECT_EQ(update.status, 0) << update.err;
  EXPECT_NE(update.out.find("gate: baseline shrunk from 6 to 5 reads\n"), std::string::npos)
      << update.out;
  auto expected = nlohmann::ordered_json::parse(committed);
  auto& entries = expected["entries"];
  for (size_t i = 0; i < entries.size(); ++i)
    if (entries[i]["enclosing"] == "a_one") entries.erase(i--);
  expected["total"] = 5;
  EXPECT_EQ(readFile(p.baseline()), expected.dump(2) + "\n");
}

// A file the diff deletes has no reads left: its keys fall, though no unit was scanned.
TEST_F(ChangedSince, DeletedFileFalls) {
  std::filesystem::remove(p.src() + "/core/b.cpp");
  p.writeDatabase("core/b.cpp");
  CommandResult r = p.runIn(".", "gate --changed-since HEAD");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "gate: 1 file(s) changed since HEAD; 0 translation unit(s) to check\n"
            "fell: src/core/b.cpp | b_one | ps::get_dp: 2 -> 0\n"
            "gate: 4 key(s) of files this run did not scan left as they are\n"
            "gate: passed: counts fell from 6 to 4; run with --update to shrink the baseline\n");
}

TEST_F(ChangedSince, UnknownRevisionIsBadInput) {
  CommandResult r = p.runIn(".", "gate --changed-since nope");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "gridlock: error: gate --changed-since nope: not a commit in " + p.real() + "\n");
}

// A new source the database does not list, and a changed header no unit includes: the diff
// selects no unit for them, so the gate could not see their reads. Each is named, exit 2;
// --allow-uncovered makes them warnings. A changed file that is not C++ is nothing to see.
TEST_F(ChangedSince, ChangedFilesNoUnitCoversAreNamed) {
  const std::string cannotSee =
      ": in the rule packs' scope, but no compile database entry covers it (no unit compiles "
      "or includes it): the gate cannot see its reads\n";
  p.write("core/c.cpp",
          "#include \"../ps.h\"\n"
          "void c_new() { ps::get_tp(); }\n");
  p.write("core/lonely.h", "#pragma once\n");
  p.write("core/notes.md", "c.cpp\n");
  CommandResult r = p.runIn(".", "gate -q --changed-since HEAD");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gridlock: error: src/core/c.cpp" + cannotSee +
                       "gridlock: error: src/core/lonely.h" + cannotSee +
                       "gridlock: 2 file(s) in scope that the gate cannot see; add them to the "
                       "compile database, leave them out of the pack's scope (scope.exclude), "
                       "or pass --allow-uncovered to warn instead\n");
  EXPECT_EQ(r.out, "");
  CommandResult allowed = p.runIn(".", "gate --changed-since HEAD --allow-uncovered");
  EXPECT_EQ(allowed.status, 0) << allowed.err;
  EXPECT_NE(allowed.err.find("gridlock: warning: src/core/c.cpp" + cannotSee), std::string::npos)
      << allowed.err;
  EXPECT_EQ(allowed.out,
            "gate: 3 file(s) changed since HEAD; 0 translation unit(s) to check\n"
            "gate: 5 key(s) of files this run did not scan left as they are\n"
            "gate: passed: 0 global reads in the 0 file(s) scanned, as in the baseline\n");
  EXPECT_EQ(readFile(p.baseline()), committed);
}

}  // namespace
}  // namespace gridlock::test
