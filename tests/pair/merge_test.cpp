// Merging ranks: a test fails when it fails on any rank and is invalid without a result on some
// rank; a binary that vanished makes its tests invalid, never absent.
#include "pair/merge.h"
#include "helpers.h"
#include "pair/report.h"

#include <gtest/gtest.h>

namespace gridlock::pair {
namespace {

ResultFile file(const std::string& source, int rank, std::vector<Observation> tests) {
  return {
      "/r/" + source + ".rank" + std::to_string(rank), source, rank, false, "", std::move(tests)};
}

ResultFile truncated(const std::string& source, int rank) {
  return {"/r/" + source + ".rank" + std::to_string(rank),
          source,
          rank,
          true,
          "truncated JSON (12 bytes)",
          {}};
}

using testing::tid;

Observation pass(const std::string& id) { return {tid(id), Outcome::Pass, ""}; }
Observation fail(const std::string& id, const std::string& m) {
  return {tid(id), Outcome::Fail, m};
}

std::map<TestId, Merged> mergeOne(const RunResults& run,
                                  MissingSource missing = MissingSource::Crash,
                                  int forcedRanks = 0) {
  TestIndex index = indexRuns({&run}, forcedRanks);
  return mergeRun(run, index, missing);
}

TEST(Merge, FailsWhenAnyRankFails) {
  RunResults run{
      "",
      {file("a.json", 0, {pass("A.x")}), file("a.json", 1, {fail("A.x", "t.cpp:3\nboom 7")}),
       file("a.json", 2, {pass("A.x")})}};
  Merged m = mergeOne(run).at(tid("A.x"));
  EXPECT_EQ(m.status, Status::Fail);
  EXPECT_EQ(m.message, "t.cpp:3\nboom 7");
  EXPECT_EQ(m.failedRanks, std::vector<int>{1});
  EXPECT_EQ(m.ranks, 3);
  EXPECT_FALSE(m.identicalOnAllRanks);
}

TEST(Merge, SeveralRunsOfOneSuiteSayWhichResultsFailed) {
  // The suite under mpirun at 2 and at 4 ranks: two sources, six rank results.
  RunResults run{"",
                 {file("np2/t.json", 0, {fail("A.x", "a")}), file("np2/t.json", 1, {pass("A.x")}),
                  file("np4/t.json", 0, {fail("A.x", "a")}), file("np4/t.json", 1, {pass("A.x")}),
                  file("np4/t.json", 2, {fail("A.x", "b")}), file("np4/t.json", 3, {pass("A.x")})}};
  Merged m = mergeOne(run).at(tid("A.x"));
  EXPECT_EQ(m.failedRanks, (std::vector<int>{0, 0, 2}));
  EXPECT_EQ(m.ranks, 6);
  EXPECT_EQ(m.runs, 2);
  EXPECT_EQ(wording::rankNote(false, m.failedRanks, m.ranks, m.runs),
            " (3 of 6 rank results in 2 runs: ranks 0, 2)");
  EXPECT_EQ(wording::rankNote(false, {1}, 3, 1), " (rank 1 of 3)");
  EXPECT_EQ(wording::rankNote(true, {0, 1}, 2, 1), " (identical on all ranks)");
}

TEST(Merge, IdenticalOnAllRanksAfterNormalising) {
  RunResults run{"",
                 {file("a.json", 0, {fail("A.x", "/t/base.cpp:3\nrank 0 at 0x10")}),
                  file("a.json", 1, {fail("A.x", "/t/base.cpp:4\nrank 1 at 0x20")})}};
  Merged m = mergeOne(run).at(tid("A.x"));
  EXPECT_EQ(m.status, Status::Fail);
  EXPECT_EQ(m.message, "/t/base.cpp:3\nrank 0 at 0x10");  // the lowest rank's, verbatim
  EXPECT_EQ(m.failedRanks, (std::vector<int>{0, 1}));
  EXPECT_TRUE(m.identicalOnAllRanks);

  RunResults differ{
      "", {file("a.json", 0, {fail("A.x", "shard")}), file("a.json", 1, {fail("A.x", "group")})}};
  EXPECT_FALSE(mergeOne(differ).at(tid("A.x")).identicalOnAllRanks);
}

TEST(Merge, MissingRankFileIsInvalid) {
  // Rank 1 of three wrote nothing: it crashed before GoogleTest could write its report.
  RunResults run{"", {file("a.json", 0, {pass("A.x")}), file("a.json", 2, {pass("A.x")})}};
  Merged m = mergeOne(run).at(tid("A.x"));
  EXPECT_EQ(m.status, Status::Invalid);
  EXPECT_EQ(m.message, "no result: a.json wrote no result file (crashed or timed out?)");
  EXPECT_EQ(m.failedRanks, std::vector<int>{1});
}

TEST(Merge, TruncatedRankFileIsInvalidNotZeroFailures) {
  RunResults run{"", {file("a.json", 0, {pass("A.x"), pass("A.y")}), truncated("a.json", 1)}};
  auto merged = mergeOne(run);
  for (const char* id : {"A.x", "A.y"}) {
    EXPECT_EQ(merged.at(tid(id)).status, Status::Invalid) << id;
    EXPECT_EQ(merged.at(tid(id)).message,
              "no result: /r/a.json.rank1: truncated JSON (12 bytes) (crashed while writing?)");
  }
}

TEST(Merge, TestMissingFromOneRanksCompleteFileIsInvalid) {
  RunResults run{"",
                 {file("a.json", 0, {pass("A.x"), pass("A.y")}), file("a.json", 1, {pass("A.x")})}};
  Merged m = mergeOne(run).at(tid("A.y"));
  EXPECT_EQ(m.status, Status::Invalid);
  EXPECT_EQ(m.message, "no result in /r/a.json.rank1");
}

TEST(Merge, CrashObservationIsInvalid) {
  RunResults run{"",
                 {file("ctest.xml", 0, {{tid("A.x"), Outcome::Crash, "died while running A.x"}})}};
  Merged m = mergeOne(run).at(tid("A.x"));
  EXPECT_EQ(m.status, Status::Invalid);
  EXPECT_EQ(m.message, "crashed: died while running A.x");
}

TEST(Merge, SkipsCountOnlyWhenEveryRankSkips) {
  RunResults run{"",
                 {file("a.json", 0, {pass("A.x"), {tid("A.s"), Outcome::Skip, "no gpu"}}),
                  file("a.json", 1,
                       {{tid("A.x"), Outcome::Skip, ""}, {tid("A.s"), Outcome::Skip, "no gpu"}})}};
  auto merged = mergeOne(run);
  EXPECT_EQ(merged.at(tid("A.x")).status, Status::Pass);  // passed wherever it ran
  EXPECT_EQ(merged.at(tid("A.s")).status, Status::Skip);
  EXPECT_EQ(merged.at(tid("A.s")).message, "no gpu");
}

TEST(Merge, VanishedBinaryIsInvalidInTheChangeAndAbsentInTheBaseline) {
  RunResults baseline{"", {file("a.json", 0, {pass("A.x")}), file("b.json", 0, {pass("B.y")})}};
  RunResults change{"", {file("a.json", 0, {pass("A.x")}), file("c.json", 0, {pass("C.z")})}};
  TestIndex index = indexRuns({&baseline, &change});
  auto c = mergeRun(change, index, MissingSource::Crash);
  EXPECT_EQ(c.at(tid("B.y")).status, Status::Invalid);  // b.json's binary died in the change
  EXPECT_EQ(c.at(tid("B.y")).message,
            "no result: b.json wrote no result file (crashed or timed out?)");
  auto b = mergeRun(baseline, index, MissingSource::Absent);
  EXPECT_EQ(b.at(tid("C.z")).status, Status::Absent);  // c.json is a binary the change added
}

TEST(Merge, RemovedTestFromACompleteBinaryIsAbsent) {
  RunResults baseline{"",
                      {file("a.json", 0, {pass("A.x"), pass("A.gone")}),
                       file("a.json", 1, {pass("A.x"), pass("A.gone")})}};
  RunResults change{"", {file("a.json", 0, {pass("A.x")}), file("a.json", 1, {pass("A.x")})}};
  TestIndex index = indexRuns({&baseline, &change});
  EXPECT_EQ(mergeRun(change, index, MissingSource::Crash).at(tid("A.gone")).status, Status::Absent);
  // ... but when the change's rank 1 file is cut off, its absence proves nothing.
  RunResults cut{"", {file("a.json", 0, {pass("A.x")}), truncated("a.json", 1)}};
  EXPECT_EQ(
      mergeRun(cut, indexRuns({&baseline, &cut}), MissingSource::Crash).at(tid("A.gone")).status,
      Status::Invalid);
}

TEST(Merge, ExpectedRanksComeFromBothTreesOrFromForcedRanks) {
  RunResults baseline{"", {file("a.json", 0, {pass("A.x")}), file("a.json", 1, {pass("A.x")})}};
  RunResults change{"", {file("a.json", 0, {pass("A.x")})}};  // the highest rank died
  TestIndex index = indexRuns({&baseline, &change});
  EXPECT_EQ(index.ranksOf.at("a.json"), (std::set<int>{0, 1}));
  EXPECT_EQ(mergeRun(change, index, MissingSource::Crash).at(tid("A.x")).status, Status::Invalid);
  // Alone, the change cannot tell a dead top rank; --ranks can.
  EXPECT_EQ(mergeOne(change).at(tid("A.x")).status, Status::Pass);
  EXPECT_EQ(mergeOne(change, MissingSource::Crash, 2).at(tid("A.x")).status, Status::Invalid);
}

}  // namespace
}  // namespace gridlock::pair
