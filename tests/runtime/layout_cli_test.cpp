// `gridlock grid` and `gridlock shard`: the JSON of docs/contracts.md and exit status 2 on
// bad input, run through the same CLI11 registration the gridlock binary uses.
#include "cli/command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>
#include <vector>

namespace {

struct Result {
  int rc;
  std::string out, err;
};

Result run(std::vector<std::string> args) {
  CLI::App app{"gridlock"};
  app.require_subcommand(1);
  auto grid = gridlock::cli::addGridCommand(app);
  auto shard = gridlock::cli::addShardCommand(app);
  std::vector<const char*> argv{"gridlock"};
  for (auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  int rc = 0;
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
    rc = app.got_subcommand("grid") ? grid() : shard();
  } catch (const CLI::ParseError& e) {
    rc = 2;
    err << e.what();
  }
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return {rc, out.str(), err.str()};
}

using Groups = std::vector<std::vector<int>>;

TEST(GridCommand, PrintsTheIssueLayout) {
  Result r = run({"grid", "--world", "8", "--tp", "2", "--pp", "2"});
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["tp"].get<Groups>(), (Groups{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  EXPECT_EQ(j["dp"].get<Groups>(), (Groups{{0, 2}, {1, 3}, {4, 6}, {5, 7}}));
  EXPECT_EQ(j["pp"].get<Groups>(), (Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  EXPECT_EQ(j["mp"].get<Groups>(), (Groups{{0, 1, 4, 5}, {2, 3, 6, 7}}));
  EXPECT_EQ(j["embd"].get<Groups>(), (Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  EXPECT_EQ(j["tp_dp_cp"].get<Groups>(), (Groups{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  for (const char* key : {"tp", "dp", "pp", "cp", "ep", "expt_tp", "expt_dp", "mp", "tp_dp_cp",
                          "embd", "dp_cp", "tp_cp"})
    EXPECT_TRUE(j.contains(key)) << key;
  // Keys in the documented order, tp first.
  EXPECT_EQ(r.out.rfind("{\"tp\":", 0), 0u) << r.out;
}

TEST(GridCommand, TakesEveryOption) {
  Result r = run({"grid", "--world", "8", "--tp", "2", "--pp", "1", "--cp", "2", "--ep", "2",
                  "--etp", "1", "--order", "tp-cp-ep-dp-pp", "--rank-offset", "4"});
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["tp"][0].get<std::vector<int>>(), (std::vector<int>{4, 5}));
  EXPECT_EQ(j["cp"][0].get<std::vector<int>>(), (std::vector<int>{4, 6}));
  EXPECT_EQ(j["ep"][0].get<std::vector<int>>(), (std::vector<int>{4, 5}));
  EXPECT_EQ(j["dp"][0].get<std::vector<int>>(), (std::vector<int>{4, 8}));
}

TEST(GridCommand, BadArgumentsExitTwoWithTheReason) {
  Result r = run({"grid", "--world", "6", "--tp", "4", "--pp", "1"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("not divisible"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(run({"grid", "--world", "8", "--tp", "2"}).rc, 2);  // --pp is required
  EXPECT_EQ(run({"grid", "--world", "8", "--tp", "2", "--pp", "2", "--order", "tp-dp"}).rc, 2);
  EXPECT_EQ(run({"grid", "--world", "x", "--tp", "2", "--pp", "2"}).rc, 2);
}

TEST(ShardCommand, PrintsTheIssueVectors) {
  EXPECT_EQ(run({"shard", "--total", "192", "--mp", "2", "--kv-heads", "3"}).out,
            "{\"sizes\":[128,64]}\n");
  EXPECT_EQ(run({"shard", "--total", "192", "--mp", "2", "--kv-heads", "2"}).out,
            "{\"sizes\":[96,96]}\n");
  EXPECT_EQ(run({"shard", "--total", "101", "--mp", "2", "--name", "lm_head"}).out,
            "{\"sizes\":[51,50]}\n");
  EXPECT_EQ(run({"shard", "--total", "101", "--mp", "2", "--name", "lm_head", "--kv-heads", "3",
                 "--grain", "64"})
                .out,
            "{\"sizes\":[64,37]}\n");
}

TEST(ShardCommand, BadArgumentsExitTwo) {
  Result r = run({"shard", "--total", "10", "--mp", "0"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("world must be >= 1"), std::string::npos) << r.err;
  EXPECT_EQ(run({"shard", "--total", "10", "--mp", "2", "--grain", "0"}).rc, 2);
  EXPECT_EQ(run({"shard", "--mp", "2"}).rc, 2);
}

}  // namespace
