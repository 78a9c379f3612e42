// fixtures/pyautotp, the DeepSpeed-shaped fixture (state module, setters, getter, laundering
// shard-size helpers), scanned with its own pack and compared line by line with the expect-read
// annotations beside its code; the counts below are the annotations' (docs/fixtures.md).
#include "scan/annotations.h"

#include "analysis/summary.h"
#include "python/scan_fixture.h"

#include <gtest/gtest.h>

namespace gridlock::test {
namespace {

const std::string kRoot = GRIDLOCK_SOURCE_DIR "/fixtures/pyautotp";

const PythonRun& pyautotp() {
  static const PythonRun run = scanPythonFixture(kRoot, kRoot + "/gridlock.json");
  return run;
}

TEST(PyautotpFixture, EveryReadAndWriteMatchesItsAnnotation) {
  Expectations expected = parseAnnotations(kRoot, "expect-read");
  EXPECT_EQ(diff(expected, expectationsOf(pyautotp().inventory.reads)), "");
}

// In autotp/: 3 accessor reads (fused.py's two getter calls, FusedLayer's helper call that
// passes num_kv_heads) and 5 laundered (every helper call that leaves it out: each one read,
// not also an accessor read), and replace.py's 2 setter calls. In tests/ (edges): 6 reads (the
// restore fixture's 2 module reads, 3 laundered calls, 1 accessor call) and 9 setter calls.
TEST(PyautotpFixture, SummaryCountsAreExact) {
  const index::Inventory& inv = pyautotp().inventory;
  analysis::Summary s = analysis::summarize(inv);
  EXPECT_EQ(s.parseErrors, 0u);
  EXPECT_EQ(s.total, 8u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::Accessor), 3u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::Laundered), 5u);
  EXPECT_EQ(s.byKind.at(facts::ReadKind::GlobalState), 0u);
  EXPECT_EQ(s.edges, 6u);
  EXPECT_EQ(s.writes, 11u);
  size_t gated = 0;
  for (const auto& r : inv.reads) gated += analysis::countsWrite(r);
  EXPECT_EQ(gated, 2u);
}

}  // namespace
}  // namespace gridlock::test
