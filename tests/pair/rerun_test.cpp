// Asymmetric reruns: only the change's unforgiven failures are rerun, only those tests, and a
// pass on a rerun makes the test flaky.
#include "fake_suite.h"
#include "pair/comparison.h"
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
  PairedRun r{collectAndCompare(o, log), readFile(d / "change/runs.log"), readFile(d / "base/runs.log")};
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
  EXPECT_EQ(r.baselineLog, "0 all\n");             // the baseline is never rerun
  EXPECT_EQ(exitCode(r.comparison), 0);
}

TEST(Reruns, AlwaysFailingIsANewFailureAfterAllReruns) {
  PairedRun r = pairTrees("A.ok pass\nA.bad pass\nA.worse pass\n", "A.ok pass\nA.bad fail\nA.worse fail\n", 3);
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
  auto env = testEnvironment("/res/change/run1", "change", 1, {tid("A.x"), tid("I/P.Param/1")});
  std::vector<std::pair<std::string, std::string>> expected = {
      {"GRIDLOCK_RESULTS_DIR", "/res/change/run1"},
      {"GTEST_OUTPUT", "json:/res/change/run1/"},
      {"GRIDLOCK_TREE", "change"},
      {"GRIDLOCK_RUN", "1"},
      {"GRIDLOCK_TEST_FILTER", "A.x:I/P.Param/1"},
      {"GTEST_FILTER", "A.x:I/P.Param/1"},
      {"GRIDLOCK_TEST_REGEX", "^(A\\.x|I/P\\.Param/1)$"},
  };
  EXPECT_EQ(env, expected);
  EXPECT_EQ(testEnvironment("/r", "baseline", 0, {}).size(), 4u);  // no filter on a first run
}

}  // namespace
}  // namespace gridlock::pair
