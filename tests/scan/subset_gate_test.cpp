// The gate only judges what it scanned: a run over some files checks and updates the keys of
// the files those translation units saw and keeps every other key byte for byte; a full run
// keeps the keys of files it could not scan (no longer in the database, or in a unit that
// failed to parse). (docs/guarantees.md, `## gate`)
#include "scan/small_project.h"
#include "scan/temp_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace gridlock::test {
namespace {

const std::string kBin = GRIDLOCK_BIN;
const std::string kScan = std::string(GRIDLOCK_SOURCE_DIR) + "/fixtures/scan";
const std::string kFixtureArgs = std::string(" -p ") +
                                 GRIDLOCK_BINARY_DIR "/fixtures/scan --rules " + kScan +
                                 "/gridlock.json --root " + kScan;
const std::string kBaseline = kScan + "/gridlock-baseline.json";

// The committed baseline with `count` set on the entry of `file` and `enclosing`.
std::string withCount(const std::string& bytes, const std::string& file,
                      const std::string& enclosing, int count) {
  auto j = nlohmann::ordered_json::parse(bytes);
  size_t total = 0, hits = 0;
  for (auto& e : j["entries"]) {
    if (e["file"] == file && e["enclosing"] == enclosing) {
      e["count"] = count;
      ++hits;
    }
    total += e["count"].get<size_t>();
  }
  EXPECT_EQ(hits, 1u) << file << " " << enclosing;
  j["total"] = total;
  return j.dump(2) + "\n";
}

struct SubsetGate : ::testing::Test {
  void SetUp() override {
    dir = makeTempDir("subset");
    base = dir + "/baseline.json";
    bytes = readFile(kBaseline);
    ASSERT_FALSE(bytes.empty());
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  CommandResult gate(const std::string& extra) {
    return runCommand(kBin + " gate" + kFixtureArgs + " --baseline " + base + " " + extra);
  }
  std::string dir, base, bytes;
};

// core/state.cpp includes no header under the root: its keys alone are checked (4 reads:
// kv_per_rank, unexplained, restage, peek; 2 writes: configure's).
TEST_F(SubsetGate, UpdateOfOneFileKeepsEveryOtherKey) {
  writeFile(base, bytes);
  CommandResult r = gate("--update " + kScan + "/core/state.cpp");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("fell:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gate: passed: 4 global reads and 2 writes in the 1 file(s) scanned, "
                       "as in the baseline"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(readFile(base), bytes);
}

// core/macros.h is in no database entry: it selects core/comm.cpp, the one unit including it,
// whose keys (comm.cpp, and templates.h which it includes) are checked; attention.cpp's are not.
TEST_F(SubsetGate, HeaderSelectsTheUnitsIncludingIt) {
  CommandResult scan =
      runCommand(kBin + " scan --format json" + kFixtureArgs + " " + kScan + "/core/macros.h");
  ASSERT_EQ(scan.status, 0) << scan.err;
  auto j = nlohmann::json::parse(scan.out);
  EXPECT_EQ(j["summary"]["files_scanned"], 1);
  // comm.cpp: rank_once 1, rank_twice 2, through_argument 1, barrier 2, world_rank 1,
  // world_barrier 1; templates.h: scaled, never_instantiated, Holder::size.
  EXPECT_EQ(j["summary"]["total"], 11);
  ASSERT_FALSE(j["reads"].empty());
  for (const auto& read : j["reads"])
    EXPECT_TRUE(read["file"] == "core/comm.cpp" || read["file"] == "core/templates.h") << read;

  // A rise in a scanned file fails; the unscanned attention.cpp key that "fell" is not judged.
  std::string edited = withCount(withCount(bytes, "core/comm.cpp", "minitron::rank_twice", 1),
                                 "core/attention.cpp", "minitron::Attention::Attention", 5);
  writeFile(base, edited);
  CommandResult rose = gate(kScan + "/core/macros.h");
  EXPECT_EQ(rose.status, 1) << rose.out << rose.err;
  EXPECT_NE(rose.out.find("rose: core/comm.cpp | minitron::rank_twice | "
                          "gridlock::parallel_state::get_tensor_model_parallel_rank: 1 -> 2"),
            std::string::npos)
      << rose.out;
  EXPECT_EQ(rose.out.find("fell:"), std::string::npos) << rose.out;
  EXPECT_EQ(rose.out.find("attention"), std::string::npos) << rose.out;
}

TEST_F(SubsetGate, UpdateShrinksOnlyTheScannedFilesKeys) {
  std::string other = withCount(bytes, "core/attention.cpp", "minitron::Attention::Attention", 5);
  writeFile(base, withCount(other, "core/comm.cpp", "minitron::world_rank", 3));
  CommandResult r = gate("--update " + kScan + "/core/macros.h");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("fell: core/comm.cpp | minitron::world_rank | MPI_COMM_WORLD: 3 -> 1"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("gate: baseline shrunk from 34 to 32 reads"), std::string::npos) << r.out;
  EXPECT_EQ(readFile(base), other);
}

TEST_F(SubsetGate, NoBaselineIsCreatedFromASubset) {
  CommandResult r = gate("--update " + kScan + "/core/state.cpp");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("gridlock: error: refusing to create the baseline " + base +
                       " from a run over some files only; run gate --update without files"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(base));
}

const char* kPack = R"({"name": "t", "accessors": [
  {"function": "ps::get_tp_group", "kind": "accessor", "group": "tp", "yields": "group"}]})";

struct Project : TempProject {
  explicit Project(const std::string& tag) : TempProject(tag) {
    writeFile(dir() + "/t.json", kPack);
    write("ps.h", "namespace ps { struct PG {}; PG* get_tp_group(); }\n");
  }
  CommandResult gate(const std::string& extra) const {
    return run("gate " + scanArgs("t.json") + " --baseline base.json " + extra);
  }
  std::string baseline() const { return readFile(dir() + "/base.json"); }
};

// A file that left the database still has its reads: the gate cannot see them (exit 2, it
// names the file); with --allow-uncovered its keys stay. A file deleted from the tree has
// none: its keys fall.
TEST(GateCoverage, FullRunKeepsKeysOfFilesItDidNotScan) {
  Project p("coverage");
  p.write("a.cpp", "#include \"ps.h\"\nps::PG* f() { return ps::get_tp_group(); }\n");
  p.write("b.cpp", "#include \"ps.h\"\nps::PG* g() { return ps::get_tp_group(); }\n");
  p.database(p.entry("a.cpp") + "," + p.entry("b.cpp"));
  ASSERT_EQ(p.gate("--update").status, 0);
  std::string both = p.baseline();
  ASSERT_NE(both.find("\"total\": 2"), std::string::npos) << both;

  p.database(p.entry("a.cpp"));
  CommandResult unseen = p.gate("");
  EXPECT_EQ(unseen.status, 2) << unseen.out << unseen.err;
  EXPECT_NE(unseen.err.find("gridlock: error: b.cpp: in the rule packs' scope, but no compile "
                            "database entry covers it"),
            std::string::npos)
      << unseen.err;
  EXPECT_EQ(p.baseline(), both);
  CommandResult kept = p.gate("--allow-uncovered");
  EXPECT_EQ(kept.status, 0) << kept.out << kept.err;
  EXPECT_EQ(kept.out.find("fell:"), std::string::npos) << kept.out;
  EXPECT_NE(kept.out.find("kept: b.cpp | g | ps::get_tp_group: 1 (not scanned by this run)"),
            std::string::npos)
      << kept.out;
  EXPECT_EQ(p.gate("--update --allow-uncovered").status, 0);
  EXPECT_EQ(p.baseline(), both);

  std::filesystem::remove(p.src() + "/b.cpp");
  CommandResult gone = p.gate("--update");
  EXPECT_EQ(gone.status, 0) << gone.out << gone.err;
  EXPECT_NE(gone.out.find("fell: b.cpp | g | ps::get_tp_group: 1 -> 0"), std::string::npos)
      << gone.out;
  EXPECT_NE(p.baseline().find("\"total\": 1"), std::string::npos) << p.baseline();
}

// A unit that does not parse may hide reads (a missing '}' makes g a nested definition, whose
// body Clang skips): with --allow-parse-errors the gate passes on what it saw, but the keys of
// the broken file are not evidence of a fall.
TEST(GateCoverage, UpdateKeepsKeysOfAUnitThatFailedToParse) {
  Project p("coverage-broken");
  const std::string f = "#include \"ps.h\"\nps::PG* f() { return ps::get_tp_group();";
  const std::string g = "ps::PG* g() { return ps::get_tp_group(); }\n";
  p.write("a.cpp", f + " }\n" + g);
  p.database(p.entry("a.cpp"));
  ASSERT_EQ(p.gate("--update").status, 0);
  std::string before = p.baseline();
  ASSERT_NE(before.find("\"total\": 2"), std::string::npos) << before;

  p.write("a.cpp", f + "\n" + g);
  CommandResult r = p.gate("--allow-parse-errors --update");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(
      r.out.find("kept: a.cpp | g | ps::get_tp_group: 1 (its file failed to parse in this run)"),
      std::string::npos)
      << r.out;
  EXPECT_EQ(p.baseline(), before);
}

// A laundered read (a call of a helper that falls back on a global) depends on the helper's
// fallback, wherever it is: a run over the caller alone still reads every unit (b.cpp holds the
// helper), so a new call fails it; but a fall it sees is no evidence a run over some files
// acts on: the key keeps its count until a full run.
TEST(GateCoverage, SubsetJudgesLaunderedKeysAndKeepsThem) {
  Project p("coverage-laundered");
  p.write("h.h", "#include \"ps.h\"\nps::PG* helper(ps::PG* pg = nullptr);\n");
  const std::string a = "#include \"h.h\"\nps::PG* user() { return helper(); }\n";
  p.write("a.cpp", a);
  p.write(
      "b.cpp",
      "#include \"h.h\"\nps::PG* helper(ps::PG* pg) { return pg ? pg : ps::get_tp_group(); }\n");
  p.database(p.entry("a.cpp") + "," + p.entry("b.cpp"));
  ASSERT_EQ(p.gate("--update").status, 0);
  std::string before = p.baseline();
  ASSERT_NE(before.find("\"name\": \"helper\""), std::string::npos) << before;

  CommandResult same = p.gate("src/a.cpp");
  EXPECT_EQ(same.status, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("gate: passed: 1 global reads in the 3 file(s) scanned, as in the "
                          "baseline\n"),
            std::string::npos)
      << same.out;

  p.write("a.cpp", a + "ps::PG* again() { return helper(); }\n");
  CommandResult rose = p.gate("--update src/a.cpp");
  EXPECT_EQ(rose.status, 1) << rose.out << rose.err;
  EXPECT_NE(rose.out.find("new:  a.cpp | again | helper: 1 read(s) not in the baseline\n"),
            std::string::npos)
      << rose.out;
  EXPECT_EQ(p.baseline(), before);

  p.write("a.cpp", a);
  p.write("b.cpp", "#include \"h.h\"\nps::PG* helper(ps::PG* pg) { return pg; }\n");
  CommandResult r = p.gate("--update src/a.cpp");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("kept: a.cpp | user | helper: 1 (laundered reads depend on the whole "
                       "program: run gate without files)"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(p.baseline(), before);
}

// A run that reads C++ and Python: each positional path selects the units of its own language
// (a C++ source, a header through the units including it, a module), however the paths mix;
// one that selects nothing in either is an error, never a gate of the rest passed.
TEST(MixedPaths, EachPathSelectsInItsOwnLanguage) {
  SmallProject p("mixed-paths");
  p.write("__init__.py", "");
  p.write("py/__init__.py", "");
  p.write("py/ps.py", "_G = None\n\n\ndef get_tp():\n    return _G\n");
  p.write("py/use.py", "from src.py import ps\n\n\ndef f():\n    return ps.get_tp()\n");
  writeFile(p.dir() + "/mixed.json", R"({"name": "mixed", "scope": {"include": ["**"]},
 "accessors": [
   {"function": "ps::get_dp", "kind": "accessor", "group": "dp", "yields": "group"},
   {"python": "src.py.ps.get_tp", "kind": "accessor", "group": "tp", "yields": "group"}]})");
  writeFile(p.dir() + "/README.md", "# p\n");
  auto byFile = [&](const std::string& paths) {
    CommandResult r = p.runIn(".", "scan --format json --no-cache --rules mixed.json " + paths);
    EXPECT_EQ(r.status, 0) << paths << ": " << r.err;
    return r.status == 0 ? nlohmann::json::parse(r.out)["summary"]["by_file"] : nlohmann::json();
  };
  // b.cpp reads get_dp once, a.cpp once and through shared.h once; use.py reads get_tp once.
  EXPECT_EQ(byFile("src/core/b.cpp src/py/use.py"),
            nlohmann::json::parse(R"({"src/core/b.cpp": 1, "src/py/use.py": 1})"));
  EXPECT_EQ(byFile("src/py/use.py src/core/b.cpp"),
            nlohmann::json::parse(R"({"src/core/b.cpp": 1, "src/py/use.py": 1})"));
  EXPECT_EQ(byFile("src/core/shared.h src/py"),
            nlohmann::json::parse(
                R"({"src/core/a.cpp": 1, "src/core/shared.h": 1, "src/py/use.py": 1})"));
  CommandResult none =
      p.runIn(".", "scan --no-cache --rules mixed.json src/core/b.cpp README.md src/py");
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err,
            "gridlock: error: README.md: selects no Python or C++ source to scan (no unit is, or "
            "includes, a file there); nothing would be checked\n");
}

}  // namespace
}  // namespace gridlock::test
