// Finding result files in a directory and telling their ranks apart.
#include "pair/result_dir.h"
#include "helpers.h"

#include <gtest/gtest.h>

namespace gridlock::pair {
namespace {

using testing::gtestJson;
using testing::TempDir;
using testing::writeFile;

TEST(SplitRank, DirectoryAndSuffixConventions) {
  auto check = [](const std::string& path, const std::string& source, int rank) {
    RankedPath r = splitRank(path);
    EXPECT_EQ(r.source, source) << path;
    EXPECT_EQ(r.rank, rank) << path;
  };
  check("rank3/attention_test.json", "attention_test.json", 3);
  check("mpi/rank12/attention_test.json", "mpi/attention_test.json", 12);
  check("attention_test.rank2.json", "attention_test.json", 2);
  check("attention_test_rank1.xml", "attention_test.xml", 1);
  check("attention_test-rank0.json", "attention_test.json", 0);
  check("attention_test.json", "attention_test.json", 0);
  check("franky/cranked.json", "franky/cranked.json", 0);  // "rank" inside a word is no marker
}

TEST(ReadResultDir, ReadsJsonAndXmlRecursivelyInPathOrder) {
  TempDir d;
  writeFile(d / "rank1/a.json", gtestJson({{"A.x", "pass", ""}}));
  writeFile(d / "rank0/a.json", gtestJson({{"A.x", "fail", "boom"}}));
  writeFile(
      d / "ctest.xml",
      "<testsuite name=\"s\"><testcase name=\"c\" classname=\"c\" status=\"run\"/></testsuite>");
  writeFile(d / "notes.txt", "ignored");
  RunResults run = readResultDir(d.path());
  ASSERT_EQ(run.files.size(), 3u);
  EXPECT_EQ(run.files[0].source, "ctest.xml");
  EXPECT_EQ(run.files[1].source, "a.json");
  EXPECT_EQ(run.files[1].rank, 0);
  EXPECT_EQ(run.files[1].tests[0].outcome, Outcome::Fail);
  EXPECT_EQ(run.files[2].rank, 1);
}

TEST(ReadResultDir, MissingDirectoryIsBadInput) {
  EXPECT_THROW(readResultDir("/nonexistent/results"), InputError);
  try {
    readResultDir("/nonexistent/results");
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/results: not a results directory");
  }
}

TEST(ReadTreeResults, RunDirectoriesAreFirstRunAndReruns) {
  TempDir d;
  writeFile(d / "run0/a.json", gtestJson({{"A.x", "fail", "boom"}}));
  writeFile(d / "run1/a.json", gtestJson({{"A.x", "fail", "boom"}}));
  writeFile(d / "run2/a.json", gtestJson({{"A.x", "pass", ""}}));
  TreeResults t = readTreeResults(d.path());
  EXPECT_EQ(t.first.files.size(), 1u);
  EXPECT_EQ(t.reruns.size(), 2u);
  TempDir flat;
  writeFile(flat / "a.json", gtestJson({{"A.x", "pass", ""}}));
  TreeResults f = readTreeResults(flat.path());
  EXPECT_EQ(f.first.files.size(), 1u);
  EXPECT_TRUE(f.reruns.empty());
}

}  // namespace
}  // namespace gridlock::pair
