// [tool.gridlock] in pyproject.toml: the keys of .gridlock.json, found upward as it is, read
// with toml++ (docs/configuration.md). A Python project configures gridlock where it configures
// black and isort; where a directory holds both, .gridlock.json is used and a note says so; a
// mistake is an error naming the file, line, column and key.
#include "support/python_project.h"
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace gridlock::test {
namespace {

const std::string kBin = GRIDLOCK_BIN;

std::string real(const std::string& dir) { return std::filesystem::canonical(dir).string(); }

CommandResult runIn(const std::string& dir, const std::string& args) {
  return runCommand("cd " + dir + " && " + kBin + " " + args);
}

// The smallest project (one read of pkg.ps.get_tp, in pkg/use.py) configured by its
// pyproject.toml alone: the gate needs no argument, from the project or below it.
TEST(Pyproject, GateWithNoArgumentsFromToolGridlock) {
  std::string dir = real(makeTempDir("pyproject-gate"));
  writePythonProject(dir);
  writeFile(dir + "/pyproject.toml",
            "[project]\n"
            "name = \"pkg\"\n"
            "\n"
            "[tool.black]\n"
            "line-length = 100\n"
            "\n"
            "[tool.gridlock]\n"
            "rules = [\"py.json\"]  # beside this file\n"
            "baseline = \"gridlock-baseline.json\"\n");
  CommandResult created = runIn(dir + "/pkg", "gate --update --no-cache");
  ASSERT_EQ(created.status, 0) << created.out << created.err;
  EXPECT_EQ(created.out,
            "gate: created baseline " + dir + "/gridlock-baseline.json with 1 reads in 1 keys\n");
  auto b = nlohmann::json::parse(readFile(dir + "/gridlock-baseline.json"));
  EXPECT_EQ(b["root"], ".");
  EXPECT_EQ(b["total"], 1);

  CommandResult passed = runIn(dir + "/pkg", "gate --no-cache -v -q");
  EXPECT_EQ(passed.status, 0) << passed.err;
  EXPECT_EQ(passed.out, "gate: passed: 1 global reads, as in the baseline\n");
  EXPECT_NE(passed.err.find("gridlock: using " + dir + "/pyproject.toml (root " + dir + ")\n"),
            std::string::npos)
      << passed.err;

  // The same keys in TOML's other spellings: dotted keys under [tool], an inline table.
  for (const std::string& toml : {std::string("[tool]\ngridlock.rules = [\"py.json\"]\n"
                                              "gridlock.baseline = \"gridlock-baseline.json\"\n"),
                                  std::string("tool.gridlock = { rules = [\"py.json\"], baseline = "
                                              "\"gridlock-baseline.json\" }\n")}) {
    writeFile(dir + "/pyproject.toml", toml);
    CommandResult again = runIn(dir, "gate --no-cache");
    EXPECT_EQ(again.status, 0) << toml << again.err;
    EXPECT_EQ(again.out, "gate: passed: 1 global reads, as in the baseline\n") << toml;
  }
}

// Both in one directory: .gridlock.json is the configuration (its baseline is the one made),
// and one note says the table is not read.
TEST(Pyproject, GridlockJsonWinsAndANoteSaysSo) {
  std::string dir = real(makeTempDir("pyproject-both"));
  writePythonProject(dir);
  writeFile(dir + "/.gridlock.json", R"({"rules": ["py.json"], "baseline": "json-baseline.json"})");
  writeFile(dir + "/pyproject.toml",
            "[tool.gridlock]\nrules = [\"py.json\"]\nbaseline = \"toml-baseline.json\"\n");
  CommandResult r = runIn(dir, "gate --update --no-cache");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "gate: created baseline " + dir + "/json-baseline.json with 1 reads in 1 keys\n");
  EXPECT_FALSE(std::filesystem::exists(dir + "/toml-baseline.json"));
  EXPECT_EQ(r.err, "gridlock: note: " + dir + "/pyproject.toml: [tool.gridlock] is not read: " +
                       dir + "/.gridlock.json is, which wins when both are there\n");
}

// A pyproject.toml without the table is no configuration: the search goes on upward.
TEST(Pyproject, APyprojectWithoutTheTableIsPassedOver) {
  std::string dir = real(makeTempDir("pyproject-other"));
  writePythonProject(dir);
  writeFile(dir + "/pyproject.toml",
            "[tool.gridlock]\nrules = [\"py.json\"]\nbaseline = \"b.json\"\n");
  writeFile(dir + "/pkg/pyproject.toml", "[tool.black]\nline-length = 100\n");
  CommandResult r = runIn(dir + "/pkg", "gate --update --no-cache");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "gate: created baseline " + dir + "/b.json with 1 reads in 1 keys\n");
  EXPECT_EQ(r.err, "");
}

// Mistakes name the file, the line and column of the key (or element), and the key as TOML
// spells it; the messages are those of .gridlock.json's keys.
TEST(Pyproject, ErrorsNameTheLineColumnAndKey) {
  std::string dir = real(makeTempDir("pyproject-bad"));
  writePythonProject(dir);
  const std::string file = dir + "/pyproject.toml";
  struct Case {
    std::string toml, error;
  };
  for (const Case& c : std::vector<Case>{
           {"[project]\nname = \"pkg\"\n\n[tool.gridlock]\nrules = [\"py.json\"]\nbild = \"b\"\n",
            file + ":6:1: tool.gridlock.bild: unknown key (expected build, rules, baseline, root, "
                   "extra_args, remove_args, jobs, docs_url, python_roots, package_root, "
                   "downstream); did you mean \"build\"?"},
           {"[tool.gridlock]\nrules = \"py.json\"\n",
            file + ":2:1: tool.gridlock.rules: expected an array of strings"},
           {"[tool.gridlock]\n  rules = [\"py.json\",\n    3]\n",
            file + ":3:5: tool.gridlock.rules[1]: expected a string"},
           {"[tool.gridlock]\nrules = [\"py.json\"]\njobs = -1\n",
            file + ":3:1: tool.gridlock.jobs: expected a non-negative integer"},
           {"[tool.gridlock]\nrules = [\"py.json\"]\nbuild = 1979-05-27\n",
            file + ":3:1: tool.gridlock.build: expected a non-empty string"},
           {"[tool]\ngridlock = 3\n", file + ":2:12: tool.gridlock: expected a table"},
       }) {
    writeFile(file, c.toml);
    CommandResult r = runIn(dir, "scan --no-cache");
    EXPECT_EQ(r.status, 2) << c.toml;
    EXPECT_EQ(r.err, "gridlock: error: " + c.error + "\n") << c.toml;
  }
  // Not TOML at all: the place of the stray bracket, then toml++'s own words.
  writeFile(file, "[tool.gridlock]\nrules = [\"py.json\"]]\n");
  CommandResult r = runIn(dir, "scan --no-cache");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("gridlock: error: " + file + ":2:20: invalid TOML: ", 0), 0u) << r.err;
}

// --config names a pyproject.toml (any .toml file) as it names a .gridlock.json; one without
// the table is an error. A missing key is named as the file spells it.
TEST(Pyproject, ConfigOptionNamesAPyproject) {
  std::string dir = real(makeTempDir("pyproject-explicit"));
  writePythonProject(dir);
  writeFile(dir + "/pyproject.toml", "[tool.gridlock]\nrules = [\"py.json\"]\n");
  std::string elsewhere = real(makeTempDir("pyproject-elsewhere"));
  CommandResult r =
      runIn(elsewhere, "scan --format json --no-cache --config " + dir + "/pyproject.toml");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["summary"]["total"], 1);

  CommandResult gate = runIn(dir, "gate --no-cache");
  EXPECT_EQ(gate.status, 2);
  EXPECT_EQ(gate.err,
            "gridlock: error: no baseline: pass --baseline FILE or set baseline in "
            "[tool.gridlock] of " +
                dir + "/pyproject.toml\n");

  writeFile(elsewhere + "/other.toml", "[tool.black]\nline-length = 100\n");
  CommandResult none = runIn(elsewhere, "scan --config other.toml");
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err, "gridlock: error: other.toml: no [tool.gridlock] table\n");
}

}  // namespace
}  // namespace gridlock::test
