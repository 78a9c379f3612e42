// fixtures/pymodel, the Python model library the e2e story rewrites, scanned with its own pack
// and compared line by line with the expect-read annotations beside its code: its committed
// baseline, docs/fixtures.md and scripts/e2e-python.sh count what these annotations say.
#include "scan/annotations.h"

#include "analysis/summary.h"
#include "python/scan_fixture.h"

#include <gtest/gtest.h>

namespace gridlock::test {
namespace {

const std::string kRoot = GRIDLOCK_SOURCE_DIR "/fixtures/pymodel";

const PythonRun& pymodel() {
  static const PythonRun run = scanPythonFixture(kRoot, kRoot + "/gridlock.json");
  return run;
}

// Its fix= words name the migration's moves (docs/fixtures.md), each a scan hint.
TEST(PymodelFixture, EveryReadMatchesItsAnnotation) {
  Expectations expected = parseAnnotations(kRoot, "expect-read", FixWords::Move);
  EXPECT_EQ(diff(expected, expectationsOf(pymodel().inventory.reads)), "");
}

// 26 annotated reads: the conftest's shim is the one edge, so 25 count (total) and are held
// against the gate; one of them is tp_shard's state, read once where local_kv_heads copies it.
TEST(PymodelFixture, SummaryCountsAreExact) {
  analysis::Summary s = analysis::summarize(pymodel().inventory);
  EXPECT_EQ(s.parseErrors, 0u);
  EXPECT_EQ(s.total, 25u);
  EXPECT_EQ(s.edges, 1u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::GlobalState), 1u);
  EXPECT_EQ(s.writes, 0u);
}

}  // namespace
}  // namespace gridlock::test
