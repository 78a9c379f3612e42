// fixtures/model scanned in process with its rule pack and compared line by line with the
// expect-read annotations beside its code; then gated against its committed baseline.
#include "rewrite/fix_annotations.h"
#include "scan/annotations.h"
#include "support/run_command.h"

#include "analysis/summary.h"
#include "apply/unified_diff.h"
#include "pipeline/pipeline.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace gridlock::test {
namespace {

// One scan for the tests below (a scan of the fixture takes tens of seconds on two cores).
const pipeline::ScanRun& modelScan() {
  static const pipeline::ScanRun run = [] {
    pipeline::ScanRequest o;
    o.buildDir = MODEL_DB_DIR;
    o.rules = {GRIDLOCK_SOURCE_DIR "/fixtures/model/gridlock.json"};
    o.root = GRIDLOCK_SOURCE_DIR "/fixtures/model";
    o.jobs = 2;
    return pipeline::scan(o);
  }();
  return run;
}

// The annotations and reads of the .cu files (cuda true) or of every other file.
std::pair<Expectations, Expectations> expectedAndActual(bool cuda) {
  Expectations actual = expectationsOf(modelScan().inventory.reads),
               expected = parseAnnotations(GRIDLOCK_SOURCE_DIR "/fixtures/model");
  for (Expectations* e : {&expected, &actual})
    for (auto it = e->begin(); it != e->end();)
      it = it->first.first.ends_with(".cu") != cuda ? e->erase(it) : std::next(it);
  return {expected, actual};
}

TEST(ModelScan, EveryReadMatchesItsAnnotationAndCountsAreExact) {
  const pipeline::ScanRun& run = modelScan();
  auto [expected, actual] = expectedAndActual(false);
  EXPECT_EQ(diff(expected, actual), "");

  analysis::Summary s = analysis::summarize(run.inventory);
  EXPECT_EQ(s.parseErrors, 0u);
  EXPECT_EQ(s.total, MODEL_DB_HAS_CUDA ? 23u : 22u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::Shim), 5u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::GlobalState), 1u);
  EXPECT_EQ(s.writes, 3u);
  EXPECT_EQ(s.edges, 1u);
  EXPECT_EQ(s.fallbacks, 7u);
}

// Without nvcc the .cu file is in no compile database.
TEST(ModelScan, CudaFileMatchesItsAnnotations) {
  if (!MODEL_DB_HAS_CUDA) GTEST_SKIP() << "no nvcc: the model has no CUDA compile database";
  auto [expected, actual] = expectedAndActual(true);
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(diff(expected, actual), "");
}

TEST(ModelScan, GatePassesAgainstCommittedBaseline) {
  CommandResult r =
      runCommand(std::string(GRIDLOCK_BIN) +
                 " gate -p " MODEL_DB_DIR " --rules " GRIDLOCK_SOURCE_DIR
                 "/fixtures/model/gridlock.json"
                 " --root " GRIDLOCK_SOURCE_DIR
                 "/fixtures/model --jobs 2"
                 " --baseline " GRIDLOCK_SOURCE_DIR "/fixtures/model/gridlock-baseline.json");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

// The rewritten model is a test output only: the diff the rewriter makes (CPU configuration),
// applied to a copy of the fixture, must give every file what its CHECK-FIXES and
// CHECK-INCLUDE annotations say, written from the pack's rules (tests/rewrite/fix_annotations.h).
const std::string kRewriteArgs = " --rules " GRIDLOCK_SOURCE_DIR
                                 "/fixtures/model/gridlock.json"
                                 " --root " GRIDLOCK_SOURCE_DIR "/fixtures/model --jobs 2 -q";

TEST(ModelRewrite, EveryFileIsWhatItsAnnotationsSay) {
  namespace fs = std::filesystem;
  CommandResult cpu =
      runCommand(std::string(GRIDLOCK_BIN) + " rewrite --diff -p " MODEL_CPU_DIR + kRewriteArgs);
  ASSERT_EQ(cpu.status, 0) << cpu.err;
  EXPECT_NE(cpu.err.find("12 substituted, 7 required, 3 threaded"), std::string::npos) << cpu.err;

  const std::string input = GRIDLOCK_SOURCE_DIR "/fixtures/model";
  const std::string copy = makeTempDir("model-rewrite");
  std::vector<std::string> files;
  for (const char* dir : {"model", "tests"})
    for (const auto& e : fs::recursive_directory_iterator(input + "/" + dir))
      if (e.is_regular_file()) files.push_back(fs::relative(e.path(), input).string());
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    fs::create_directories(fs::path(copy + "/" + f).parent_path());
    fs::copy_file(input + "/" + f, copy + "/" + f);
  }
  std::ofstream(copy + "/rewrite.diff", std::ios::binary) << cpu.out;
  CommandResult patched = runCommand("cd " + copy + " && patch -p1 --quiet < rewrite.diff");
  ASSERT_EQ(patched.status, 0) << patched.out << patched.err;

  std::string mismatches;
  for (const auto& f : files) {
    std::string expected = expectedOutput(readFile(input + "/" + f));
    std::string actual = readFile(copy + "/" + f);
    if (actual != expected) mismatches += apply::fileDiff(f, expected, actual);
  }
  EXPECT_EQ(mismatches, "");
  fs::remove_all(copy);
}

// The .cu is threaded too: its re-parse must succeed (it failed while the .cu was C++17 and
// the runtime's header it now needs is C++20).
TEST(ModelRewrite, TheCudaConfigurationRewritesToo) {
  if (!MODEL_DB_HAS_CUDA) GTEST_SKIP() << "no nvcc: the model has no CUDA compile database";
  CommandResult cuda =
      runCommand(std::string(GRIDLOCK_BIN) + " rewrite --diff -p " MODEL_DB_DIR + kRewriteArgs);
  ASSERT_EQ(cuda.status, 0) << cuda.err;
  EXPECT_NE(cuda.out.find("+++ b/model/device_ops.cu"), std::string::npos);
}

}  // namespace
}  // namespace gridlock::test
