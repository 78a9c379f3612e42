// What the gate cannot see fails it: a C, C++ or CUDA file of the packs' scope that no unit of
// the compile database compiles or includes (a new source left out of the build, a header no
// unit includes), and a rule pack that matches nothing. (docs/scan.md, "What the gate must
// see")
#include "scan/small_project.h"
#include "support/python_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

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
// A directory the walk cannot read (here: removed after its parent was listed, the walk
// stopped at that step) is an error naming it, never files left unnamed and a gate passed.
TEST_F(Uncovered, ADirectoryTheWalkCannotReadIsAnErrorNamingIt) {
  p.write("extra/c.cpp", "#include \"../ps.h\"\nvoid c_new() { ps::get_tp(); }\n");
  // Listed first the root, then src/ (the build directory is not walked): stopped there.
  Spawned s = runStopping({GRIDLOCK_BIN, "gate", "-q", "--config", p.dir() + "/.gridlock.json"},
                          {"GRIDLOCK_STOP_AT=walk-listed:2"},
                          [&] { std::filesystem::remove_all(p.dir() + "/src/extra"); });
  EXPECT_EQ(s.status, 2);
  EXPECT_EQ(s.err, "gridlock: error: " + p.real() +
                       "/src/extra: cannot read the directory: No such file or directory\n");
  EXPECT_EQ(readFile(p.baseline()), made);
}

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

// Python files go through the same pipeline, but no compile database lists them: a mixed run
// (-p, and a pack with a Python rule) holds only its C, C++ and CUDA files against the
// database, never a .py file. A pack whose C++ rule matches nothing but whose Python rule does
// matches something: the gate judges.
TEST_F(Uncovered, MixedRunNamesNoPythonFile) {
  p.write("__init__.py", "");
  p.write("py/__init__.py", "");
  p.write("py/ps.py", "_G = None\n\n\ndef get_tp():\n    return _G\n");
  p.write("py/use.py", "from src.py import ps\n\n\ndef f():\n    return ps.get_tp()\n");
  writeFile(p.dir() + "/mixed.json",
            R"({"name": "mixed",
 "scope": {"include": ["**"], "edges": ["src/train/**"]},
 "accessors": [
   {"function": "other::get_tp", "kind": "accessor", "group": "tp", "yields": "group"},
   {"python": "src.py.ps.get_tp", "kind": "accessor", "group": "tp", "yields": "group"}]}
)");
  const std::string gate = "gate -q --rules mixed.json --baseline mixed-baseline.json";
  // 7 units: a.cpp, b.cpp, main.cpp and the 4 Python modules.
  const std::string warning =
      "gridlock: warning: rule 'other::get_tp' (pack mixed) matched no declaration in 7 "
      "translation units\n";
  CommandResult update = p.runIn(".", gate + " --update");
  EXPECT_EQ(update.status, 0) << update.err;
  EXPECT_EQ(update.err, warning);
  auto j = nlohmann::json::parse(readFile(p.dir() + "/mixed-baseline.json"));
  EXPECT_EQ(j["total"], 1);
  EXPECT_EQ(j["entries"], nlohmann::json::parse(R"([{"file": "src/py/use.py",
    "enclosing": "src.py.use.f", "name": "src.py.ps.get_tp", "count": 1}])"));

  // The check still runs in such a run: a new C++ source is named, the .py files are not.
  p.write("core/c.cpp", "void c_new() {}\n");
  CommandResult r = p.runIn(".", gate);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, warning + "gridlock: error: src/core/c.cpp" + kCannotSee +
                       "gridlock: 1 file(s) in scope that the gate cannot see; add them to the "
                       "compile database, leave them out of the pack's scope (scope.exclude), or "
                       "pass --allow-uncovered to warn instead\n");
}

const std::string kPymodel = std::string(GRIDLOCK_SOURCE_DIR) + "/fixtures/pymodel";

// fixtures/pymodel with its own pack (Python rules only, no compile database): a full gate
// names no file, and judges. Its baseline holds the keys of the 8 modules whose annotations
// give counted reads (tests/conftest.py's one read is an edge's).
TEST(UncoveredPython, PythonOnlyGateNamesNoFile) {
  std::string dir = makeTempDir("uncovered-pymodel");
  CommandResult r =
      runCommand(std::string(GRIDLOCK_BIN) + " gate -q --no-cache --rules " + kPymodel +
                 "/gridlock.json --root " + kPymodel + " --baseline " + dir + "/b.json --update");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  auto j = nlohmann::json::parse(readFile(dir + "/b.json"));
  std::set<std::string> files;
  for (const auto& e : j["entries"]) files.insert(e["file"].get<std::string>());
  EXPECT_EQ(files, (std::set<std::string>{"minimodel/attention.py", "minimodel/context_parallel.py",
                                          "minimodel/grad_norm.py", "minimodel/language_model.py",
                                          "minimodel/layers.py", "minimodel/mlp.py",
                                          "minimodel/utils.py", "minimodel/vision.py"}));
}

// Packs of Python rules alone read no C, C++ or CUDA file, so none is held against a compile
// database (there is none): Megatron-LM keeps .cpp and .cu sources under megatron/core, the
// semantic pack's scope. A full gate of such a tree with a Python-only pack names no file.
TEST(UncoveredPython, PythonOnlyPackHoldsNoCxxFileAgainstTheDatabase) {
  std::string dir = makeTempDir("uncovered-pyonly");
  writePythonProject(dir);
  writeFile(dir + "/pkg/csrc/helpers.cpp", "int helper() { return 0; }\n");
  writeFile(dir + "/pkg/csrc/kernel.cu", "__global__ void k() {}\n");
  CommandResult r =
      runCommand(std::string(GRIDLOCK_BIN) + " gate -q --no-cache --rules " + dir +
                 "/py.json --root " + dir + " --baseline " + dir + "/b.json --update");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  auto j = nlohmann::json::parse(readFile(dir + "/b.json"));
  EXPECT_EQ(j["total"], 1);
}

// A pack of Python rules alone that no module defines: a full gate is bad input, as for C++
// (17 modules under minimodel/, the scope's one directory), and writes no baseline.
TEST(PackMatchingNothing, PythonPackIsJudgedToo) {
  std::string dir = makeTempDir("nothing-python");
  writeFile(dir + "/nopy.json", R"({"name": "nopy", "scope": {"include": ["minimodel/**"]},
 "accessors": [
   {"python": "minimodel.nope.get_tp", "kind": "accessor", "group": "tp", "yields": "group"}]}
)");
  CommandResult r =
      runCommand(std::string(GRIDLOCK_BIN) + " gate -q --no-cache --rules " + dir +
                 "/nopy.json --root " + kPymodel + " --baseline " + dir + "/b.json --update");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "gridlock: warning: rule 'python minimodel.nope.get_tp' (pack nopy) matched no "
            "definition in 17 Python modules\n"
            "gridlock: error: rule pack 'nopy' matched nothing in 17 translation unit(s): no unit "
            "declares any of its rules, so the gate would count no reads (check --rules and the "
            "compile database)\n");
  EXPECT_FALSE(std::filesystem::exists(dir + "/b.json"));
}

}  // namespace
}  // namespace gridlock::test
