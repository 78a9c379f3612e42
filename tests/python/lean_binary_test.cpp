// gridlock-python, the Python build (tool/cli/CMakeLists.txt): it links no Clang, LLVM or MPI,
// prints what the full gridlock prints on a Python project (fixtures/pymodel, every command
// the oracle's fixtures tier runs there), and names the full build for what only it reads.
#include "support/run_command.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

const std::string kFull = GRIDLOCK_BIN;
const std::string kLean = GRIDLOCK_PYTHON_BIN;
const std::string kSrc = GRIDLOCK_SOURCE_DIR;

// The shared libraries a binary names (readelf -d: its NEEDED entries).
std::vector<std::string> needed(const std::string& binary) {
  CommandResult r = runCommand("readelf -d '" + binary + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<std::string> out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("(NEEDED)") == std::string::npos) continue;
    size_t open = line.find('['), close = line.find(']');
    if (open != std::string::npos && close != std::string::npos)
      out.push_back(line.substr(open + 1, close - open - 1));
  }
  return out;
}

bool namesAny(const std::vector<std::string>& libraries, const std::vector<std::string>& prefixes) {
  for (const auto& l : libraries)
    for (const auto& p : prefixes)
      if (l.rfind(p, 0) == 0) return true;
  return false;
}

// A copy of fixtures/pymodel, the commands run in it as the oracle runs them.
class LeanBinary : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = makeTempDir("lean-pymodel");
    fs::copy(kSrc + "/fixtures/pymodel", dir_, fs::copy_options::recursive);
  }
  void TearDown() override { fs::remove_all(dir_); }
  CommandResult run(const std::string& bin, const std::string& args) {
    return runCommand("cd '" + dir_ + "' && NO_COLOR=1 GRIDLOCK_PROGRESS_INTERVAL=1000000 '" + bin +
                      "' " + args);
  }
  std::string dir_;
};

TEST_F(LeanBinary, NeedsNoClangLlvmOrMpi) {
  std::vector<std::string> lean = needed(kLean), full = needed(kFull);
  ASSERT_FALSE(lean.empty());
  std::string list;
  for (const auto& l : lean) list += l + " ";
  for (const char* p : {"libclang-cpp", "libLLVM", "libmpi"})
    EXPECT_FALSE(namesAny(lean, {p})) << p << " in " << list;
  // The check reads what it means to: the full build names Clang and LLVM.
  EXPECT_TRUE(namesAny(full, {"libclang-cpp"}));
  EXPECT_TRUE(namesAny(full, {"libLLVM"}));
}

TEST_F(LeanBinary, SameAsFullOnPymodel) {
  const std::string common = " --rules gridlock.json --root . --no-cache";
  std::vector<std::string> commands = {
      "scan" + common + " --plan --format json",
      "rewrite" + common + " --diff",
      "callers" + common +
          " --function minimodel.attention.GroupedQueryAttention --param pg_collection --format "
          "text",
      "callers" + common +
          " --function minimodel.attention.GroupedQueryAttention --param pg_collection --format "
          "json",
  };
  for (const char* f : {"text", "json", "sarif"}) {
    commands.push_back(std::string("scan") + common + " --format " + f);
    commands.push_back(std::string("scan") + common + " --plan --format " + f);
    commands.push_back(std::string("gate") + common +
                       " --baseline gridlock-baseline.json --format " + f);
  }
  for (const std::string& c : commands) {
    SCOPED_TRACE(c);
    CommandResult full = run(kFull, c), lean = run(kLean, c);
    EXPECT_EQ(lean.status, full.status);
    EXPECT_EQ(lean.out, full.out);
    EXPECT_EQ(lean.err, full.err);
    EXPECT_FALSE(full.out.empty() && full.err.empty());
  }
  // The exported fixes: the same file.
  std::string yaml = dir_ + "/../lean-fixes.yaml";
  CommandResult full = run(kFull, "rewrite" + common + " --export-fixes '" + yaml + "'");
  std::string fullYaml = readFile(yaml);
  CommandResult lean = run(kLean, "rewrite" + common + " --export-fixes '" + yaml + "'");
  EXPECT_EQ(lean.status, full.status);
  EXPECT_EQ(lean.out, full.out);
  EXPECT_EQ(lean.err, full.err);
  EXPECT_EQ(readFile(yaml), fullYaml);
  EXPECT_NE(fullYaml.find("ReplacementText"), std::string::npos);
  fs::remove(yaml);
}

// The Python build keeps its cache within --cache-size, as the full build does: within the
// bound (1G) the run's entries stay; past it (1 byte) every entry is evicted after the run.
TEST_F(LeanBinary, EvictsItsCacheToItsBound) {
  const std::string cache = dir_ + "/.cache-under-test";
  auto entries = [&] {
    size_t n = 0;
    for (const auto& e : fs::recursive_directory_iterator(cache + "/entries"))
      n += e.is_regular_file();
    return n;
  };
  const std::string scan =
      "scan -q --rules gridlock.json --root . --cache-dir " + cache + " --cache-size ";
  CommandResult kept = run(kLean, scan + "1G");
  ASSERT_EQ(kept.status, 0) << kept.err;
  EXPECT_GT(entries(), 0u);
  fs::remove_all(cache);
  CommandResult bounded = run(kLean, scan + "1");
  ASSERT_EQ(bounded.status, 0) << bounded.err;
  EXPECT_EQ(entries(), 0u);
}

TEST_F(LeanBinary, SaysWhichBuildItIs) {
  CommandResult r = run(kLean, "--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "gridlock " GRIDLOCK_EXPECTED_VERSION " (Python build: no C++ frontend)\n");
  // merge reads shards' facts files: the full build's.
  CommandResult merge = run(kLean, "merge x");
  EXPECT_EQ(merge.status, 2);
  EXPECT_NE(merge.err.find("unknown command 'merge'"), std::string::npos) << merge.err;
}

// With no pack and no config, the Python build asks for what it can act on (a pack, a root,
// a config), never for -p, which it refuses; the full build still asks for the compile
// database first.
TEST_F(LeanBinary, WithNothingToScanItAsksForPacksNotACompileDatabase) {
  std::string empty = makeTempDir("lean-empty");
  auto scanIn = [&](const std::string& bin) {
    return runCommand("cd '" + empty + "' && '" + bin + "' scan");
  };
  CommandResult lean = scanIn(kLean);
  EXPECT_EQ(lean.status, 2);
  EXPECT_EQ(lean.out, "");
  EXPECT_EQ(lean.err,
            "gridlock: error: nothing to scan: pass --rules PACK (a rule pack with Python rules: "
            "a shipped name such as megatron-core, or a path) and --root DIR (the project, when "
            "it is not the current directory), or set \"rules\" in a .gridlock.json or rules "
            "in [tool.gridlock] of a pyproject.toml (none found from the current directory "
            "upward)\n");
  CommandResult full = scanIn(kFull);
  EXPECT_EQ(full.status, 2);
  EXPECT_EQ(full.err,
            "gridlock: error: no build directory: pass -p BUILD (the directory holding "
            "compile_commands.json, or the file itself) or set \"build\" in a .gridlock.json "
            "(none found from the current directory upward)\n");
  fs::remove_all(empty);
}

// The help names only the commands the binary has: merge is the full build's.
TEST_F(LeanBinary, HelpNamesOnlyItsCommands) {
  CommandResult lean = run(kLean, "--help"), full = run(kFull, "--help");
  ASSERT_EQ(lean.status, 0);
  ASSERT_EQ(full.status, 0);
  EXPECT_EQ(lean.out.find("merge"), std::string::npos) << lean.out;
  EXPECT_NE(lean.out.find("\n  scan, gate          text (clang-style diagnostics, then a "
                          "summary or the verdict), json,\n"),
            std::string::npos)
      << lean.out;
  EXPECT_NE(full.out.find("\n  scan, gate, merge   text (clang-style diagnostics, then a "
                          "summary or the verdict), json,\n"),
            std::string::npos)
      << full.out;
  EXPECT_NE(full.out.find("\n  merge "), std::string::npos) << full.out;  // the command list
  // scan's shard options, which the Python build refuses, name the full build instead.
  CommandResult scan = run(kLean, "scan --help");
  ASSERT_EQ(scan.status, 0);
  EXPECT_EQ(scan.out.find("merge"), std::string::npos) << scan.out;
  EXPECT_NE(scan.out.find("  --facts-out TEXT            The full build's (gridlock): write the "
                          "units' facts here (no report)\n"),
            std::string::npos)
      << scan.out;
}

TEST_F(LeanBinary, CppInputNamesTheFullBuild) {
  const std::string tail =
      ": only the full build, gridlock (with Clang), reads it; this is gridlock-python, the "
      "Python build without the C++ frontend\n";
  fs::create_directories(dir_ + "/build");
  writeFile(dir_ + "/build/compile_commands.json", "[]\n");
  writeFile(dir_ + "/kernel.cpp", "int f() { return 0; }\n");
  const std::string common = " --rules gridlock.json --root . --no-cache";
  struct Case {
    std::string args, err;
  };
  std::vector<Case> cases = {
      {"scan -p build" + common, "gridlock: error: -p build (a compile database)" + tail},
      {"gate -p build --baseline gridlock-baseline.json" + common,
       "gridlock: error: -p build (a compile database)" + tail},
      {"scan" + common + " kernel.cpp",
       "gridlock: error: kernel.cpp (a C, C++ or CUDA file)" + tail},
      {"scan" + common + " --shard 1/2 --facts-out f.facts",
       "gridlock: error: --shard/--facts-out (a shard's facts file)" + tail},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    CommandResult r = run(kLean, c.args);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, c.err);
    EXPECT_EQ(r.out, "");
  }
  EXPECT_FALSE(fs::exists(dir_ + "/f.facts"));
}

}  // namespace
}  // namespace gridlock::test
