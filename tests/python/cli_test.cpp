// The gridlock binary on Python: scan, gate and callers with no compile database, files from
// the packs' scope, a .gridlock.json naming Python roots and a src/ package root; a scan that
// asks for no Python still needs -p, with the message it always had.
#include "support/python_project.h"
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <sstream>

namespace gridlock::test {
namespace {

const std::string kBin = GRIDLOCK_BIN;
const std::string kSrc = GRIDLOCK_SOURCE_DIR;
const std::string kFixture = " --rules " + kSrc + "/fixtures/python/gridlock.json --root " + kSrc +
                             "/fixtures/python --no-cache";

TEST(PythonCli, ScanReadsThePacksPythonWithoutACompileDatabase) {
  CommandResult r = runCommand(kBin + " scan --format json --allow-parse-errors" + kFixture);
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  // fixtures/python: its annotations give 85 counted reads, one file that does not parse.
  EXPECT_EQ(j["summary"]["total"], 85) << r.out.substr(0, 2000);
  EXPECT_EQ(j["summary"]["parse_errors"], 1);
  EXPECT_EQ(j["parse_errors"][0]["file"], "broken/bad.py");
  bool dotted = false;
  for (const auto& read : j["reads"]) {
    dotted = dotted || read["name"] == "mcore.parallel_state.get_tensor_model_parallel_src_rank";
    EXPECT_EQ(read["language"], "python") << read.dump();
  }
  EXPECT_TRUE(dotted);
}

TEST(PythonCli, AFileThatDoesNotParseExitsTwo) {
  CommandResult r = runCommand(kBin + " scan" + kFixture);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("broken/bad.py"), std::string::npos) << r.err;
}

// A Python-only scan keeps its cache within --cache-size, as a C++ scan does: past the bound
// (1 byte) every entry is evicted after the run; within it (1G) the run's entries stay.
TEST(PythonCli, APythonScanEvictsItsCacheToItsBound) {
  namespace fs = std::filesystem;
  std::string dir = makeTempDir("py-evict");
  auto entries = [&] {
    size_t n = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir + "/entries"))
      n += e.is_regular_file();
    return n;
  };
  const std::string scan = kBin + " scan -q --allow-parse-errors --rules " + kSrc +
                           "/fixtures/python/gridlock.json --root " + kSrc +
                           "/fixtures/python --cache-dir " + dir + " --cache-size ";
  CommandResult kept = runCommand(scan + "1G");
  ASSERT_EQ(kept.status, 0) << kept.err;
  EXPECT_GT(entries(), 0u);
  fs::remove_all(dir);
  CommandResult bounded = runCommand(scan + "1");
  ASSERT_EQ(bounded.status, 0) << bounded.err;
  EXPECT_EQ(entries(), 0u);
  fs::remove_all(dir);
}

TEST(PythonCli, WithoutPythonRulesABuildDirectoryIsStillNeeded) {
  std::string dir = makeTempDir("py-nodb");
  CommandResult r =
      runCommand("cd " + dir + " && " + kBin + " scan --rules " + kSrc + "/rules/mpi.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no build directory: pass -p BUILD"), std::string::npos) << r.err;
}

TEST(PythonCli, CallersOfAClassOnPython) {
  CommandResult r = runCommand(kBin + " callers --format json --allow-parse-errors" + kFixture +
                               " --function mcore.layers.linear.Linear --param tp_group");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["sites"], 22);
  EXPECT_EQ(j["summary"]["passed"], nlohmann::json({{"positional", 3},
                                                    {"keyword", 5},
                                                    {"omitted", 6},
                                                    {"**kwargs", 3},
                                                    {"**kwargs[key]", 4},
                                                    {"twice", 1}}));
}

// Where a class escapes as a value the scan does not follow, `callers` says its list may be
// incomplete and names each place, in text and JSON (fixtures/pycallers, escapes.py).
TEST(PythonCli, CallersNamesWhereAClassEscapes) {
  const std::string args = " --rules " + kSrc + "/fixtures/pycallers/gridlock.json --root " + kSrc +
                           "/fixtures/pycallers --no-cache --function pkg.layers.Row "
                           "--param tp_group";
  CommandResult text = runCommand(kBin + " callers" + args);
  ASSERT_EQ(text.status, 0) << text.err;
  const std::string tail =
      "may be incomplete: 6 place(s) hand on as a value what reaches it; calls from there are "
      "not listed:\n"
      "  pkg/escapes.py:16:22  pkg.layers.Row stored in an attribute, an item or a class body\n"
      "  pkg/escapes.py:21:21  pkg.layers.Row returned by pkg.layers.get_linear, whose result is "
      "passed as an argument here\n"
      "  pkg/escapes.py:25:21  pkg.layers.Row in LAYERS, a display of pkg/layers.py, passed as an "
      "argument here\n"
      "  pkg/escapes.py:30:16  pkg.layers.Row in a display, which is used as a value there\n"
      "  pkg/escapes.py:35:12  pkg.layers.Row returned by pkg.layers.get_linear, whose result is "
      "returned here\n"
      "  pkg/escapes.py:39:21  pkg.layers.Row returned by pkg.layers.get_linear, which is passed "
      "as an argument\n";
  EXPECT_TRUE(text.out.ends_with(tail)) << text.out;
  CommandResult json = runCommand(kBin + " callers --format json" + args);
  ASSERT_EQ(json.status, 0) << json.err;
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["complete"], false);
  ASSERT_EQ(j["escapes"].size(), 6u);
  EXPECT_EQ(j["escapes"][0], nlohmann::json::parse(R"({"file": "pkg/escapes.py", "line": 16,
      "column": 22, "value": "pkg.layers.Row",
      "how": "stored in an attribute, an item or a class body"})"));
  EXPECT_EQ(j["summary"]["sites"], 5);
}

// A gate that fails on a new Python read says how to allow one in Python's comment syntax,
// and such a comment allows it, its reason in SARIF.
TEST(PythonCli, GateFailureSaysHowToAllowAReadInPython) {
  std::string dir = makeTempDir("py-allow");
  writePythonProject(dir);
  const std::string gate =
      "cd " + dir + " && " + kBin + " gate --no-cache --rules py.json --baseline b.json";
  ASSERT_EQ(runCommand(gate + " --update -q").status, 0);
  addASecondRead(dir);
  CommandResult r = runCommand(gate);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(
      r.out.ends_with("gate: remove each read above (its fix says how), or allow a "
                      "deliberate one with `# gridlock: allow(reason)` "
                      "(docs/suppressions.md)\n"))
      << r.out;
  writeFile(dir + "/pkg/use.py",
            "from pkg import ps\n\n\ndef f():\n    return ps.get_tp()\n\n\n"
            "def g():\n    return ps.get_tp()  # gridlock: allow(a test of the world group)\n");
  CommandResult allowed = runCommand(gate);
  EXPECT_EQ(allowed.status, 0) << allowed.out << allowed.err;
  EXPECT_EQ(allowed.out,
            "allowed: pkg/use.py:9: pkg.ps.get_tp (a test of the world group)\n"
            "gate: passed: 1 global reads, as in the baseline\n");

  // The allowed read is in the gate's SARIF as a C++ one is (tests/unit/report_test.cpp): a
  // result, unchanged against the baseline, with an in-source suppression carrying the reason.
  CommandResult sarif = runCommand(gate + " --format sarif -o gate.sarif");
  ASSERT_EQ(sarif.status, 0) << sarif.out << sarif.err;
  auto s = nlohmann::json::parse(readFile(dir + "/gate.sarif"));
  EXPECT_EQ(s["version"], "2.1.0");
  const auto& results = s["runs"][0]["results"];
  ASSERT_EQ(results.size(), 2u) << results.dump(1);
  std::map<int, nlohmann::json> byLine;
  for (const auto& res : results)
    byLine[res["locations"][0]["physicalLocation"]["region"]["startLine"].get<int>()] = res;
  ASSERT_EQ(byLine.size(), 2u);
  EXPECT_FALSE(byLine[5].contains("suppressions")) << byLine[5].dump();
  EXPECT_EQ(byLine[9]["suppressions"],
            nlohmann::json::parse(
                R"([{"kind": "inSource", "justification": "a test of the world group"}])"));
  EXPECT_EQ(byLine[9]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "pkg/use.py");
  // An allowed read needs no fix: its message names none.
  EXPECT_EQ(byLine[9]["message"]["text"], "global tp group from pkg.ps.get_tp in pkg.use.g");
  EXPECT_EQ(byLine[5]["message"]["text"],
            "global tp group from pkg.ps.get_tp in pkg.use.f; fix: thread a group parameter");
  EXPECT_EQ(byLine[9]["baselineState"], "unchanged");
  EXPECT_EQ(byLine[5]["baselineState"], "unchanged");
}

TEST(PythonCli, ConfigNamesPythonRootsAndASrcLayout) {
  std::string dir = makeTempDir("py-src");
  writeFile(dir + "/src/pkg/__init__.py", "");
  writeFile(dir + "/src/pkg/ps.py", "_G = None\n\n\ndef get_tp():\n    return _G\n");
  writeFile(dir + "/src/pkg/use.py", "from pkg import ps\n\n\ndef f():\n    return ps.get_tp()\n");
  writeFile(dir + "/tools/other.py", "def g(:\n");  // not a Python root: never read
  writeFile(dir + "/p.json", R"({"name": "p", "scope": {"include": ["**"]}, "accessors": [
    {"python": "pkg.ps.get_tp", "kind": "accessor", "group": "tp", "yields": "group"}]})");
  writeFile(dir + "/.gridlock.json",
            R"({"rules": ["p.json"], "python_roots": ["src"], "package_root": "src"})");
  CommandResult r = runCommand("cd " + dir + " && " + kBin + " scan --format json --no-cache");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["summary"]["total"], 1) << r.out;
  EXPECT_EQ(j["reads"][0]["file"], "src/pkg/use.py");
  EXPECT_EQ(j["reads"][0]["name"], "pkg.ps.get_tp");
  EXPECT_EQ(j["reads"][0]["line"], 5);
}

// A scan that reads Python, in shards: each shard reads and resolves every module (names
// resolve across all of them) and writes the facts of its own; merge gives the bytes and the
// warnings one scan gives, and the shards hold every module once, in path order.
TEST(PythonCli, ShardsOfAPythonScanMergeToOneScan) {
  std::string dir = makeTempDir("py-shards");
  writeFile(dir + "/extra.json", R"({"name": "extra", "scope": {"include": ["**"]}, "accessors": [
    {"python": "mcore.parallel_state.get_nothing", "kind": "accessor", "group": "tp",
     "yields": "group"}]})");
  const std::string args = " --allow-parse-errors" + kFixture + " --rules " + dir + "/extra.json";
  std::map<std::string, CommandResult> full;
  for (const std::string format : {"json", "sarif", "text"}) {
    full[format] = runCommand(kBin + " scan -q --format " + format + args);
    ASSERT_EQ(full[format].status, 0) << full[format].err;
  }
  EXPECT_NE(full["json"].err.find("mcore.parallel_state.get_nothing"), std::string::npos);
  for (size_t n : {1u, 2u, 3u}) {
    std::string files;
    std::vector<std::string> units;
    for (size_t i = 1; i <= n; ++i) {
      std::string name = std::to_string(i) + "/" + std::to_string(n);
      std::string out = dir + "/shard-" + std::to_string(i) + "-of-" + std::to_string(n) + ".facts";
      CommandResult r =
          runCommand(kBin + " scan -q -v --shard " + name + " --facts-out " + out + args);
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.out, "");
      // What one shard did not match another may: merge warns, for the whole scan.
      EXPECT_EQ(r.err.find("get_nothing"), std::string::npos) << r.err;
      std::istringstream lines(r.err);
      const std::string prefix = "gridlock: shard " + name + ": ";
      for (std::string line; std::getline(lines, line);)
        if (line.rfind(prefix, 0) == 0 && line.find(" of ") == std::string::npos)
          units.push_back(line.substr(prefix.size()));
      files += " " + out;
    }
    EXPECT_EQ(units,
              (std::vector<std::string>{
                  "broken/bad.py", "mcore/__init__.py", "mcore/layers/__init__.py",
                  "mcore/layers/allowed.py", "mcore/layers/attention.py", "mcore/layers/heads.py",
                  "mcore/layers/imports.py", "mcore/layers/linear.py", "mcore/model.py",
                  "mcore/parallel_state.py", "mcore/process_groups_config.py", "mcore/state.py",
                  "mcore/utils.py", "train/main.py"}))
        << n << " shards";
    for (const std::string format : {"json", "sarif", "text"}) {
      CommandResult merged = runCommand(kBin + " merge --format " + format + files);
      EXPECT_EQ(merged.status, 0) << merged.err;
      EXPECT_EQ(merged.out, full[format].out) << n << " shards, " << format;
      EXPECT_EQ(merged.err, full[format].err) << n << " shards, " << format;
    }
  }
}

}  // namespace
}  // namespace gridlock::test
