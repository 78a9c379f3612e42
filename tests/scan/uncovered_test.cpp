// What the gate cannot see fails it: a C, C++ or CUDA file of the packs' scope that no unit of
// the compile database compiles or includes (a new source left out of the build, a header no
// unit includes), and a rule pack that matches nothing. (docs/scan.md, "What the gate must
// see")
#include "scan/small_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace gridlock::test {
namespace {

const std::string kCannotSee =
    ": in the rule packs' scope, but no compile database entry covers it (no unit compiles or "
    "includes it): the gate cannot see its reads\n";

struct Uncovered : ::testing::Test {
  void SetUp() override {
    ASSERT_EQ(p.runIn(".", "gate --update -q").status, 0);
    made = readFile(p.baseline());
  }
  SmallProject p{"uncovered"};
  std::string made;
};

// A new source with a read, left out of the database, and a header no unit includes: each
// named, exit 2, the baseline untouched (with --update too). Not named: an edge file (its reads
// are not counted), a file in a hidden directory and one in a build tree, a file that is not
// C++, the units and the headers they include.
TEST_F(Uncovered, FullRunNamesEachFileNoUnitCovers) {
  p.write("core/c.cpp",
          "#include \"../ps.h\"\n"
          "void c_new() { ps::get_tp(); }\n");
  p.write("core/lonely.h",
          "#pragma once\n#include \"../ps.h\"\ninline void l() { ps::get_dp(); }\n");
  p.write("train/tool.cpp", "#include \"../ps.h\"\nint tool() { ps::get_tp(); return 0; }\n");
  p.write(".hidden/x.cpp", "int x;\n");
  p.write("out/CMakeCache.txt", "");
  p.write("out/CMakeFiles/CompilerIdCXX/CMakeCXXCompilerId.cpp", "int main() {}\n");
  p.write("core/notes.txt", "a.cpp and c.cpp\n");
  p.write("core/tool.py", "import os\n");
  const std::string expected = "gridlock: error: src/core/c.cpp" + kCannotSee +
                               "gridlock: error: src/core/lonely.h" + kCannotSee +
                               "gridlock: 2 file(s) in scope that the gate cannot see; add them "
                               "to the compile database, leave them out of the pack's scope "
                               "(scope.exclude), or pass --allow-uncovered to warn instead\n";
  CommandResult r = p.runIn(".", "gate -q");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, expected);
  EXPECT_EQ(r.out, "");
  CommandResult update = p.runIn(".", "gate -q --update");
  EXPECT_EQ(update.status, 2);
  EXPECT_EQ(update.err, expected);
  EXPECT_EQ(readFile(p.baseline()), made);

  // --allow-uncovered: warnings, then the verdict on what the gate saw.
  CommandResult allowed = p.runIn(".", "gate -q --allow-uncovered");
  EXPECT_EQ(allowed.status, 0) << allowed.err;
  EXPECT_EQ(allowed.err, "gridlock: warning: src/core/c.cpp" + kCannotSee +
                             "gridlock: warning: src/core/lonely.h" + kCannotSee +
                             "gridlock: 2 file(s) in scope not checked (--allow-uncovered)\n");
  EXPECT_EQ(allowed.out, "gate: passed: 5 global reads, as in the baseline\n");

  // Out of the pack's scope: nothing to see.
  writeFile(p.dir() + "/ours.json",
            R"({"name": "ours",
 "scope": {"include": ["**"], "exclude": ["src/core/c.cpp", "src/core/lonely.h"],
           "edges": ["src/train/**"]},
 "accessors": [
   {"function": "ps::get_tp", "kind": "accessor", "group": "tp", "yields": "group"},
   {"function": "ps::get_dp", "kind": "accessor", "group": "dp", "yields": "group"}]}
)");
  CommandResult excluded = p.runIn(".", "gate -q");
  EXPECT_EQ(excluded.status, 0) << excluded.err;
  EXPECT_EQ(excluded.err, "");
}

// A directory given selects its units; a file in it that no unit covers is named too.
TEST_F(Uncovered, DirectoryGivenNamesItsUncoveredFiles) {
  p.write("core/c.cpp", "void c_new() {}\n");
  CommandResult r = p.runIn(".", "gate -q src/core");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("gridlock: error: src/core/c.cpp" + kCannotSee), std::string::npos) << r.err;
  CommandResult other = p.runIn(".", "gate -q src/train");
  EXPECT_EQ(other.status, 0) << other.err;
}

// The root / (a CI container's working directory): the whole file system, system headers
// included, is no project's tree, so a full gate does not walk it; it says so, and judges what
// it saw.
TEST_F(Uncovered, RootSlashIsNotWalked) {
  p.write("core/c.cpp", "void c_new() {}\n");
  CommandResult r =
      p.runIn(".", "gate -q --root / --baseline " + p.dir() + "/slash-baseline.json --update");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "gridlock: warning: the root is /: the gate does not walk the whole file system for "
            "files no unit covers; give --root the project's directory to have them named\n");
}

// A pack that no unit declares anything of, alone: a full gate is bad input, and --update writes
// no baseline of 0 reads.
TEST(PackMatchingNothing, FullGateIsAnErrorAndWritesNoBaseline) {
  SmallProject p("pack-nothing");
  writeFile(p.dir() + "/ours.json",
            R"({"name": "ours",
 "accessors": [
   {"function": "other::get_tp", "kind": "accessor", "group": "tp", "yields": "group"}]}
)");
  const std::string expected =
      "gridlock: error: rule pack 'ours' matched nothing in 3 translation unit(s): no unit "
      "declares any of its rules, so the gate would count no reads (check --rules and the "
      "compile database)\n";
  const std::string warning =
      "gridlock: warning: rule 'other::get_tp' (pack ours) matched no declaration in 3 "
      "translation units\n";
  CommandResult update = p.runIn(".", "gate -q --update");
  EXPECT_EQ(update.status, 2);
  EXPECT_EQ(update.err, warning + expected);
  EXPECT_FALSE(std::filesystem::exists(p.baseline()));
  // A scan warns, as before.
  CommandResult scan = p.runIn(".", "scan -q");
  EXPECT_EQ(scan.status, 0) << scan.err;
  EXPECT_EQ(scan.err, warning);
}

// Several packs, one of which matches nothing (a project need not use every pack it names, as
// README's first configuration names gridlock-legacy and mpi): a warning, and the gate counts
// what the others match. When none matches, each is named.
TEST(PackMatchingNothing, AnotherPackMatchingIsEnough) {
  SmallProject p("pack-another");
  writeFile(p.dir() + "/theirs.json",
            R"({"name": "theirs",
 "accessors": [
   {"function": "other::get_tp", "kind": "accessor", "group": "tp", "yields": "group"}]}
)");
  writeFile(p.dir() + "/.gridlock.json",
            R"({"build": "build", "rules": ["ours", "theirs"], "baseline": "gridlock-baseline.json"}
)");
  CommandResult update = p.runIn(".", "gate -q --update");
  EXPECT_EQ(update.status, 0) << update.err;
  EXPECT_EQ(update.err.find("error"), std::string::npos) << update.err;
  EXPECT_NE(update.err.find("other::get_tp"), std::string::npos) << update.err;
  EXPECT_NE(readFile(p.baseline()).find("\"total\": 5,"), std::string::npos)
      << readFile(p.baseline());

  writeFile(p.dir() + "/ours.json",
            R"({"name": "ours",
 "accessors": [
   {"function": "other::get_dp", "kind": "accessor", "group": "dp", "yields": "group"}]}
)");
  CommandResult none = p.runIn(".", "gate -q");
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("gridlock: error: rule packs 'ours', 'theirs' matched nothing in 3 "
                          "translation unit(s): no unit declares any of their rules, so the "
                          "gate would count no reads (check --rules and the compile database)\n"),
            std::string::npos)
      << none.err;
}

}  // namespace
}  // namespace gridlock::test
