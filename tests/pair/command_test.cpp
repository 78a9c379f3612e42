// The `pair` subcommand through CLI11: exit codes 0 / 1 / 2 and the messages for bad input.
#include "cli/command.h"
#include "helpers.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace gridlock::pair {
namespace {

using namespace gridlock::pair::testing;

struct Result {
  int code;
  std::string out, err;
};

// Parses like main.cpp does: a usage error is bad input (2).
Result runCommand(std::vector<std::string> args) {
  args.insert(args.begin(), {"gridlock", "pair"});
  CLI::App app;
  cli::Runner run = cli::addPairCommand(app);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  int code;
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
    code = run();
  } catch (const CLI::ParseError&) {
    code = 2;
  }
  std::string out = ::testing::internal::GetCapturedStdout();
  return {code, out, ::testing::internal::GetCapturedStderr()};
}

const std::string kCategories = dataDir() + "/categories";

TEST(PairCommand, RegressionExitsOne) {
  Result r = runCommand({"--baseline-results", kCategories + "/baseline", "--change-results",
                         kCategories + "/change"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out.rfind("gridlock pair: FAIL: 1 new_failure, 1 invalid, 1 flaky", 0), 0u) << r.out;
}

TEST(PairCommand, NoRegressionExitsZero) {
  TempDir d;
  writeFile(d / "b/a.json", gtestJson({{"A.x", "pass", ""}, {"A.y", "fail", "old"}}));
  writeFile(d / "c/a.json", gtestJson({{"A.x", "pass", ""}, {"A.y", "pass", ""}}));
  Result r =
      runCommand({"--baseline-results", d / "b", "--change-results", d / "c", "--format", "json"});
  EXPECT_EQ(r.code, 0);
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["fixed"], 1);
  EXPECT_EQ(j["summary"]["passed_both"], 1);
  EXPECT_EQ(j["result"], "pass");
}

TEST(PairCommand, InvalidAloneExitsOne) {
  TempDir d;
  writeFile(d / "b/a.json", gtestJson({{"A.x", "pass", ""}}));
  writeFile(d / "c/a.json", "{\"testsuites\": [{\"name\": \"A\", \"testsui");  // died writing
  Result r =
      runCommand({"--baseline-results", d / "b", "--change-results", d / "c", "--format", "json"});
  EXPECT_EQ(r.code, 1);
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["invalid"], 1);
  EXPECT_EQ(j["tests"][0]["change"], "invalid");
}

TEST(PairCommand, MissingDirectoryExitsTwo) {
  Result r = runCommand(
      {"--baseline-results", "/nonexistent/b", "--change-results", kCategories + "/change"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "gridlock pair: error: /nonexistent/b: not a results directory\n");
  EXPECT_EQ(r.out, "");
}

TEST(PairCommand, MalformedResultFileExitsTwoNamingIt) {
  TempDir d;
  writeFile(d / "b/a.json", gtestJson({{"A.x", "pass", ""}}));
  writeFile(d / "c/a.json", "{\"testsuites\": 7}\n");
  Result r = runCommand({"--baseline-results", d / "b", "--change-results", d / "c"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "gridlock pair: error: " + (d / "c/a.json") +
                       ": not a GoogleTest JSON report: no \"testsuites\" array\n");
}

TEST(PairCommand, EmptyBaselineExitsTwo) {
  TempDir d;
  fs::create_directories(d / "b");
  writeFile(d / "c/a.json", gtestJson({{"A.x", "pass", ""}}));
  Result r = runCommand({"--baseline-results", d / "b", "--change-results", d / "c"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(d / "b" + ": no result files"), std::string::npos) << r.err;
}

TEST(PairCommand, UsageErrorsExitTwo) {
  EXPECT_EQ(runCommand({}).code, 2);
  EXPECT_EQ(runCommand({"--baseline", "a", "--change", "b"}).code, 2);  // no --test
  EXPECT_EQ(runCommand({"--baseline", "a", "--change", "b", "--test", "t", "--baseline-results",
                        "x", "--change-results", "y"})
                .code,
            2);
  EXPECT_EQ(runCommand({"--baseline-results", kCategories + "/baseline"}).code, 2);
  Result fmt = runCommand({"--baseline-results", kCategories + "/baseline", "--change-results",
                           kCategories + "/change", "--format", "yaml"});
  EXPECT_EQ(fmt.code, 2);
  EXPECT_EQ(fmt.err, "gridlock pair: error: --format must be text, json or markdown, not yaml\n");
  EXPECT_EQ(runCommand({"--reruns", "many"}).code, 2);  // CLI11 rejects a non-number
  Result timeout = runCommand({"--baseline-results", kCategories + "/baseline", "--change-results",
                               kCategories + "/change", "--timeout", "-1"});
  EXPECT_EQ(timeout.code, 2);
  EXPECT_EQ(timeout.err, "gridlock pair: error: --timeout must be 0 (no limit) or more\n");
}

TEST(PairCommand, OutputFileGetsTheReport) {
  TempDir d;
  Result r = runCommand({"--baseline-results", kCategories + "/baseline", "--change-results",
                         kCategories + "/change", "--format", "markdown", "-o", d / "report.md"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(readFile(d / "report.md"), readFile(kCategories + "/expected.md"));
  Result bad = runCommand({"--baseline-results", kCategories + "/baseline", "--change-results",
                           kCategories + "/change", "-o", "/nonexistent/dir/report.txt"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err,
            "gridlock pair: error: -o /nonexistent/dir/report.txt: the directory /nonexistent/dir "
            "does not exist\n");
}

// A report that cannot be written is bad input before any build or test runs, not after them.
TEST(PairCommand, AnOutputThatCannotBeWrittenStopsBeforeTheTests) {
  TempDir d;
  writeFile(d / "tree/README", "a tree\n");
  std::string marker = d / "tests-ran";
  Result r = runCommand({"--baseline", d / "tree", "--change", d / "tree", "--test",
                         "touch " + marker, "-o", d / "tree"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "gridlock pair: error: -o " + (d / "tree") + ": is a directory\n");
  EXPECT_FALSE(std::filesystem::exists(marker));
}

}  // namespace
}  // namespace gridlock::pair
