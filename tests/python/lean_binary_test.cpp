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

TEST_F(LeanBinary, SaysWhichBuildItIs) {
  CommandResult r = run(kLean, "--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "gridlock " GRIDLOCK_EXPECTED_VERSION " (Python build: no C++ frontend)\n");
  // merge reads shards' facts files: the full build's.
  CommandResult merge = run(kLean, "merge x");
  EXPECT_EQ(merge.status, 2);
  EXPECT_NE(merge.err.find("unknown command 'merge'"), std::string::npos) << merge.err;
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
