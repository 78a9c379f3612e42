// Asymmetric reruns: only the change's unforgiven failures are rerun, only those tests, and a
// pass on a rerun makes the test flaky.
#include "fake_suite.h"
#include "pair/comparison.h"
#include "pair/rerun_filter.h"
#include "pair/runner.h"

#include <gtest/gtest.h>

#include <sstream>

namespace gridlock::pair {
namespace {

using namespace gridlock::pair::testing;

struct PairedRun {
  Comparison comparison;
  std::string changeLog;  // what run_tests.sh saw in the change: "<run> <filter>" per call
  std::string baselineLog;
};

PairedRun pairTrees(const std::string& baselineTests, const std::string& changeTests, int reruns) {
  TempDir d;
  makeTree(d / "base", baselineTests);
  makeTree(d / "change", changeTests);
  PairOptions o;
  o.baseline = d / "base";
  o.change = d / "change";
  o.test = kSingleRank;
  o.reruns = reruns;
  std::ostringstream log;
  PairedRun r{collectAndCompare(o, log), readFile(d / "change/runs.log"),
              readFile(d / "base/runs.log")};
  return r;
}

const TestRow& row(const Comparison& c, const std::string& id) {
  for (const TestRow& t : c.tests)
    if (t.id == id) return t;
  throw std::runtime_error("no row " + id);
}

TEST(Reruns, FailsFirstPassesSecondIsFlaky) {
  PairedRun r = pairTrees("A.ok pass\nA.wobbly pass\n", "A.ok pass\nA.wobbly flaky\n", 2);
  const TestRow& t = row(r.comparison, "A.wobbly");
  EXPECT_EQ(name(t.category), "flaky");
  EXPECT_EQ(t.change, Status::Fail);
  EXPECT_EQ(t.reruns, 1);
  EXPECT_EQ(t.passedOnRerun, 1);
  EXPECT_EQ(r.changeLog, "0 all\n1 A.wobbly\n");  // only the failing test, and only once
  EXPECT_EQ(r.baselineLog, "0 all\n");            // the baseline is never rerun
  EXPECT_EQ(exitCode(r.comparison), 0);
}

TEST(Reruns, AlwaysFailingIsANewFailureAfterAllReruns) {
  PairedRun r = pairTrees("A.ok pass\nA.bad pass\nA.worse pass\n",
                          "A.ok pass\nA.bad fail\nA.worse fail\n", 3);
  EXPECT_EQ(name(row(r.comparison, "A.bad").category), "new_failure");
  EXPECT_EQ(row(r.comparison, "A.bad").reruns, 3);
  EXPECT_EQ(r.changeLog, "0 all\n1 A.bad:A.worse\n2 A.bad:A.worse\n3 A.bad:A.worse\n");
  EXPECT_EQ(exitCode(r.comparison), 1);
}

TEST(Reruns, NoRerunsLeavesAFlakeANewFailure) {
  PairedRun r = pairTrees("A.wobbly pass\n", "A.wobbly flaky\n", 0);
  EXPECT_EQ(name(row(r.comparison, "A.wobbly").category), "new_failure");
  EXPECT_EQ(r.changeLog, "0 all\n");
}

TEST(Reruns, BaselineFailureForgivesWithoutRerun) {
  PairedRun r = pairTrees("A.old fail\n", "A.old fail\n", 2);
  EXPECT_EQ(name(row(r.comparison, "A.old").category), "still_failing");
  EXPECT_EQ(r.changeLog, "0 all\n");
  EXPECT_EQ(exitCode(r.comparison), 0);
}

TEST(Reruns, PairingStopsRerunningWhatPassed) {
  auto obs = [](const std::string& id, Outcome o, const std::string& m) {
    return Observation{tid(id), o, m};
  };
  auto file = [](std::vector<Observation> tests) {
    return RunResults{"", {{"/r/a.json", "a.json", 0, false, "", std::move(tests)}}};
  };
  RunResults base = file({obs("A.x", Outcome::Pass, ""), obs("A.y", Outcome::Pass, "")});
  RunResults change = file({obs("A.x", Outcome::Fail, "m"), obs("A.y", Outcome::Fail, "m")});
  Pairing p(base, change);
  EXPECT_EQ(p.pendingReruns(), (std::set<TestId>{tid("A.x"), tid("A.y")}));
  p.addRerun(file({obs("A.x", Outcome::Fail, "m"), obs("A.y", Outcome::Pass, "")}));
  EXPECT_EQ(p.pendingReruns(), std::set<TestId>{tid("A.x")});
  p.addRerun(file({}));  // the rerun's binary wrote nothing: still no pass
  EXPECT_EQ(p.pendingReruns(), std::set<TestId>{tid("A.x")});
  Comparison c = p.result();
  EXPECT_EQ(name(row(c, "A.x").category), "new_failure");
  EXPECT_EQ(row(c, "A.x").reruns, 2);
  EXPECT_EQ(name(row(c, "A.y").category), "flaky");
  EXPECT_EQ(row(c, "A.y").passedOnRerun, 1);
}

TEST(Reruns, EnvironmentNamesTheTestsToRun) {
  auto env = testEnvironment("/res/change/run1", "change", 1, {tid("A.x"), tid("I/P.Param/1")},
                             "/res/change/run1.filter");
  Environment expected = {
      {"GRIDLOCK_RESULTS_DIR", "/res/change/run1"},
      {"GTEST_OUTPUT", "json:/res/change/run1/"},
      {"GRIDLOCK_TREE", "change"},
      {"GRIDLOCK_RUN", "1"},
      {"GRIDLOCK_TEST_FILTER_FILE", "/res/change/run1.filter"},
      {"GRIDLOCK_TEST_FILTER", "A.x:I/P.Param/1"},
      {"GTEST_FILTER", "A.x:I/P.Param/1"},
      {"GRIDLOCK_TEST_REGEX", "^(A\\.x|I/P\\.Param/1)$"},
  };
  EXPECT_EQ(env, expected);
  EXPECT_EQ(testEnvironment("/r", "baseline", 0, {}).size(), 4u);  // no filter on a first run
}

TEST(Reruns, FilterVariablesAllOrNone) {
  std::set<TestId> tests = {tid("A.x"), {"A.B", "C"}, {"", "plain"}};
  EXPECT_EQ(filterFileText(tests), "plain\nA.x\nA.B.C\n");
  // "GRIDLOCK_TEST_REGEX=^(plain|A\.x|A\.B\.C)$" and its NUL are 43 bytes, the others fewer.
  EXPECT_EQ(filterVariables(tests, 43).size(), 3u);
  EXPECT_EQ(filterVariables(tests, 42), Environment{});  // one too long: none, not a partial filter
  EXPECT_EQ(filterVariables({}), Environment{});
}

// A suite of 20,000 tests, written by awk rather than compiled: in the change every Many.* test
// fails on the first run and passes on reruns; Other.Breaks passes first and fails on reruns.
// runs.log records what each run was told: which filter variables were set, and the filter
// file's line count and first line.
const char* kManyTests = R"(
n=20000
rerun=$([ "$GRIDLOCK_RUN" = 0 ] && echo 0 || echo 1)
lines=-; first=-
if [ -n "${GRIDLOCK_TEST_FILTER_FILE:-}" ]; then
  lines=$(wc -l < "$GRIDLOCK_TEST_FILTER_FILE" | tr -d ' ')
  first=$(head -n 1 "$GRIDLOCK_TEST_FILTER_FILE")
fi
vars="gtest_filter=${GTEST_FILTER+set} filter=${GRIDLOCK_TEST_FILTER+set}"
echo "run=$GRIDLOCK_RUN $vars regex=${GRIDLOCK_TEST_REGEX+set} file=$lines first=$first" >> runs.log
fails=0; [ -e change ] && fails=1
awk -v n=$n -v fails=$fails -v rerun=$rerun 'BEGIN {
  f = ", \"failures\": [{\"failure\": \"many.cpp:1\\nboom\", \"type\": \"\"}]"
  printf "{\"testsuites\": [{\"name\": \"Many\", \"testsuite\": ["
  for (i = 0; i < n; i++)
    printf "%s{\"name\": \"T%d\", \"status\": \"RUN\", \"result\": \"COMPLETED\"%s}",
           (i ? ", " : ""), i, (fails && !rerun ? f : "")
  printf "]}, {\"name\": \"Other\", \"testsuite\": [{\"name\": \"Breaks\", \"status\": \"RUN\", "
  printf "\"result\": \"COMPLETED\"%s}]}]}\n", (fails && rerun ? f : "")
}' > "$GRIDLOCK_RESULTS_DIR/many.json"
)";

TEST(Reruns, TwentyThousandFailuresAreRerunUnfilteredAndSelectedAfterwards) {
  TempDir d;
  writeFile(d / "base/suite.sh", kManyTests);
  writeFile(d / "change/suite.sh", kManyTests);
  writeFile(d / "change/change", "");
  PairOptions o;
  o.baseline = d / "base";
  o.change = d / "change";
  o.test = "sh suite.sh";
  o.reruns = 2;
  std::ostringstream log;
  Comparison c = collectAndCompare(o, log);
  // The filter (about 240 KB) exceeds the kernel's 128 KiB limit for one environment string, so
  // the rerun runs unfiltered, with the list in the file; a pass there makes each test flaky.
  EXPECT_EQ(readFile(d / "change/runs.log"),
            "run=0 gtest_filter= filter= regex= file=- first=-\n"
            "run=1 gtest_filter= filter= regex= file=20000 first=Many.T0\n")
      << log.str();
  EXPECT_EQ(c.summary.at(Category::Flaky), 20000);
  // Other.Breaks was not rerun for a reason: its failure in the unfiltered rerun is not read.
  EXPECT_EQ(c.summary.at(Category::PassedBoth), 1);
  EXPECT_EQ(c.tests.size(), 20001u);
  EXPECT_EQ(exitCode(c), 0);
}

}  // namespace
}  // namespace gridlock::pair
