// The model suite on the legacy baseline, under mpirun with 2 and 4 ranks, one GoogleTest JSON
// per rank ($GRIDLOCK_RESULTS_DIR/rank<N>/model_test.json): exactly the three bug tests fail
// (on some rank), every other test passes on every rank, and every rank reports every test.
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>

namespace gridlock::test {
namespace {

const std::set<std::string> kBugTests = {
    "VisionLanguage.EncoderOnOwnGridUsesOwnGroups",  // (a) encoder on its own grid
    "GradNorm.ExpertParamsFilteredByExpertTpGroup",  // (b) expert duplicates vs dense tp
    "TwoModels.FirstModelKeepsItsKvHeads",           // (c) kv heads overwritten
};

struct RankResults {
  std::map<std::string, bool> failed;  // test id -> failed on this rank
};

class ModelBaseline : public testing::TestWithParam<int> {};

TEST_P(ModelBaseline, FailsExactlyTheThreeBugTests) {
  const int ranks = GetParam();
  const std::string dir = makeTempDir("model-np" + std::to_string(ranks));
  const std::string cmd = "GRIDLOCK_RESULTS_DIR=" + dir +
                          " timeout 300 " MODEL_MPIRUN
                          " --allow-run-as-root --oversubscribe"
                          " --mca btl_vader_single_copy_mechanism none -n " +
                          std::to_string(ranks) + " " MODEL_CPU_DIR "/model_test";
  CommandResult r = runCommand(cmd);
  EXPECT_EQ(r.status, 1) << "the baseline suite must fail (its bug tests do)\n" << r.err;

  std::map<std::string, std::set<int>> failedOn;
  std::map<std::string, int> reportedBy;
  for (int rank = 0; rank < ranks; ++rank) {
    const std::string file = dir + "/rank" + std::to_string(rank) + "/model_test.json";
    ASSERT_TRUE(std::filesystem::exists(file)) << "rank " << rank << " wrote no " << file;
    nlohmann::json report = nlohmann::json::parse(readFile(file));
    for (const auto& suite : report.at("testsuites"))
      for (const auto& test : suite.at("testsuite")) {
        const std::string id =
            suite.at("name").get<std::string>() + "." + test.at("name").get<std::string>();
        ++reportedBy[id];
        if (test.contains("failures") && !test.at("failures").empty()) failedOn[id].insert(rank);
      }
  }
  std::set<std::string> failed;
  for (const auto& [id, on] : failedOn) failed.insert(id);
  EXPECT_EQ(failed, kBugTests);
  for (const auto& [id, n] : reportedBy) EXPECT_EQ(n, ranks) << id << " missing on some rank";
  EXPECT_GE(reportedBy.size(), 14u);  // the suite as written: bug tests and their passing peers
  // Where each bug shows: (a) on the vision ranks only (the last two), (b) and (c) on tp rank 0
  // at least (the dense tp rank that drops experts / holds two kv heads is rank 1 / rank 0).
  EXPECT_EQ(failedOn["VisionLanguage.EncoderOnOwnGridUsesOwnGroups"],
            (std::set<int>{ranks - 2, ranks - 1}));
  EXPECT_TRUE(failedOn["TwoModels.FirstModelKeepsItsKvHeads"].count(0));
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Ranks, ModelBaseline, testing::Values(2, 4),
                         [](const testing::TestParamInfo<int>& i) {
                           return "np" + std::to_string(i.param);
                         });

}  // namespace
}  // namespace gridlock::test
