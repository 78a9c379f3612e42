// Every category from crafted result files (data/categories: two ranks, a rerun, a binary that
// dies on rank 1 in the change), and the exact text, JSON and Markdown reports of them.
#include "helpers.h"
#include "pair/report.h"
#include "pair/result_dir.h"

#include <gtest/gtest.h>

#include <sstream>

namespace gridlock::pair {
namespace {

using testing::dataDir;
using testing::readFile;

Comparison categories() {
  return compare(readTreeResults(dataDir() + "/categories/baseline"),
                 readTreeResults(dataDir() + "/categories/change"));
}

const TestRow& row(const Comparison& c, const std::string& id) {
  for (const TestRow& t : c.tests)
    if (t.id == id) return t;
  throw std::runtime_error("no row " + id);
}

TEST(Categories, EveryCategoryFromCraftedFiles) {
  Comparison c = categories();
  auto cat = [&](const std::string& id) { return std::string(name(row(c, id).category)); };
  EXPECT_EQ(cat("Model.Passes"), "passed_both");
  EXPECT_EQ(cat("Model.Skipped"), "passed_both");
  EXPECT_EQ(cat("Model.Breaks"), "new_failure");
  EXPECT_EQ(cat("Model.Fixed"), "fixed");
  EXPECT_EQ(cat("Model.Still"), "still_failing");
  EXPECT_EQ(cat("Model.Flaky"), "flaky");
  EXPECT_EQ(cat("Model.Added"), "added");
  EXPECT_EQ(cat("Model.Removed"), "removed");
  EXPECT_EQ(cat("Crash.Works"), "invalid");
  for (Category k : kAllCategories)
    EXPECT_EQ(c.summary.at(k), k == Category::PassedBoth ? 2 : 1) << name(k);
  EXPECT_EQ(c.skippedBoth, 1);
  EXPECT_EQ(c.ranks, 2);
  EXPECT_EQ(exitCode(c), 1);
}

TEST(Categories, MultiRankDetails) {
  Comparison c = categories();
  const TestRow& breaks = row(c, "Model.Breaks");
  EXPECT_EQ(breaks.failedRanks, std::vector<int>{1});
  EXPECT_EQ(breaks.reruns, 1);
  EXPECT_EQ(breaks.passedOnRerun, 0);
  EXPECT_EQ(breaks.signature, "Attention requires an explicit pg_collection (group at <addr>)");
  const TestRow& still = row(c, "Model.Still");
  EXPECT_TRUE(still.identicalOnAllRanks);
  EXPECT_EQ(still.reruns, 0);  // forgiven by the baseline, never rerun
  const TestRow& flaky = row(c, "Model.Flaky");
  EXPECT_EQ(flaky.change, Status::Fail);
  EXPECT_EQ(flaky.passedOnRerun, 1);
  const TestRow& crash = row(c, "Crash.Works");
  EXPECT_EQ(crash.baseline, Status::Pass);
  EXPECT_EQ(crash.change, Status::Invalid);
  EXPECT_EQ(crash.failedRanks, std::vector<int>{1});
  EXPECT_EQ(crash.reruns, 1);
}

// Reports are compared with data/categories/expected.*, written from the result files by
// reading the comparison and the renderers (pair/merge.cpp, comparison.cpp, report_*.cpp),
// never from the output: a change to a report changes them by hand.
void expectGolden(const std::string& actual, const std::string& file) {
  std::string path = dataDir() + "/categories/" + file;
  EXPECT_EQ(actual, readFile(path)) << "differs from " << path;
}

TEST(Categories, JsonReportExact) {
  std::ostringstream out;
  writeJson(categories(), out);
  expectGolden(out.str(), "expected.json");
}

TEST(Categories, MarkdownReportExact) {
  std::ostringstream out;
  writeMarkdown(categories(), out);
  expectGolden(out.str(), "expected.md");
}

TEST(Categories, TextReportExact) {
  std::ostringstream out;
  writeText(categories(), out);
  expectGolden(out.str(), "expected.txt");
}

TEST(Signatures, GroupedByNormalisedMessageMostFrequentFirst) {
  std::vector<TestRow> rows;
  for (int i = 0; i < 63; ++i) {
    TestRow r;
    r.id = "Attn.T" + std::to_string(i);
    r.category = Category::NewFailure;
    r.signature = "Attention requires an explicit pg_collection";
    r.identicalOnAllRanks = true;
    rows.push_back(r);
  }
  TestRow other;
  other.id = "Norm.X";
  other.category = Category::StillFailing;
  other.signature = "norm <n> != <n>";
  rows.push_back(other);
  TestRow fixed = other;
  fixed.id = "Norm.Fixed";
  fixed.category = Category::Fixed;  // a fixed test is no problem of the change
  rows.push_back(fixed);
  auto sigs = groupSignatures(rows);
  ASSERT_EQ(sigs.size(), 2u);
  EXPECT_EQ(sigs[0].message, "Attention requires an explicit pg_collection");
  EXPECT_EQ(sigs[0].count, 63);
  EXPECT_TRUE(sigs[0].identicalOnAllRanks);
  EXPECT_EQ(sigs[0].categories.at(Category::NewFailure), 63);
  EXPECT_EQ(sigs[1].count, 1);
  EXPECT_FALSE(sigs[1].identicalOnAllRanks);

  Comparison c;
  for (Category k : kAllCategories) c.summary[k] = 0;
  c.summary[Category::NewFailure] = 63;
  c.ranks = 4;
  c.signatures = sigs;
  std::ostringstream out;
  writeText(c, out);
  EXPECT_NE(out.str().find(
                "  63x Attention requires an explicit pg_collection (identical on all ranks)\n"),
            std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace gridlock::pair
