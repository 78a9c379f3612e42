// fixtures/model scanned in process with its rule pack and compared line by line with the
// expect-read annotations beside its code; then gated against its committed baseline.
#include "scan/annotations.h"
#include "support/run_command.h"

#include "analysis/summary.h"
#include "cli/scan_options.h"

#include <gtest/gtest.h>

namespace gridlock::test {
namespace {

// One test, one scan (a scan of the fixture takes tens of seconds on two cores).
TEST(ModelScan, EveryReadMatchesItsAnnotationAndCountsAreExact) {
  cli::ScanOptions o;
  o.buildDir = MODEL_DB_DIR;
  o.rules = {GRIDLOCK_SOURCE_DIR "/fixtures/model/gridlock.json"};
  o.root = GRIDLOCK_SOURCE_DIR "/fixtures/model";
  o.jobs = 2;
  const cli::ScanRun run = cli::runScan(o);
  Expectations actual;
  for (const auto& r : run.inventory.reads) actual[{r.file, r.line}].insert(canonical(r));
  Expectations expected = parseAnnotations(GRIDLOCK_SOURCE_DIR "/fixtures/model");
  if (!MODEL_DB_HAS_CUDA) {  // without nvcc the .cu file is in no compile database
    for (auto it = expected.begin(); it != expected.end();)
      it = it->first.first.ends_with(".cu") ? expected.erase(it) : std::next(it);
    std::cout << "note: no CUDA configuration; the .cu file's annotations are not checked\n";
  }
  EXPECT_EQ(diff(expected, actual), "");

  analysis::Summary s = analysis::summarize(run.inventory);
  EXPECT_EQ(s.parseErrors, 0u);
  EXPECT_EQ(s.total, MODEL_DB_HAS_CUDA ? 23u : 22u);
  EXPECT_EQ(s.byKind.at("shim"), 5u);
  EXPECT_EQ(s.byKind.at("global_state"), 1u);
  EXPECT_EQ(s.writes, 3u);
  EXPECT_EQ(s.edges, 1u);
  EXPECT_EQ(s.fallbacks, 7u);
}

TEST(ModelScan, GatePassesAgainstCommittedBaseline) {
  CommandResult r = runCommand(std::string(GRIDLOCK_BIN) + " gate -p " MODEL_DB_DIR
                               " --rules " GRIDLOCK_SOURCE_DIR "/fixtures/model/gridlock.json"
                               " --root " GRIDLOCK_SOURCE_DIR "/fixtures/model --jobs 2"
                               " --baseline " GRIDLOCK_SOURCE_DIR "/fixtures/model/gridlock-baseline.json");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

}  // namespace
}  // namespace gridlock::test
