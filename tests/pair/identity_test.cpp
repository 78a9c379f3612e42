// Test identity and report escaping: suite and name stay apart (suite "A.B" test "C" is not suite
// "A" test "B.C"), and names or messages with `|`, backticks or newlines cannot break a report.
#include "helpers.h"
#include "pair/report.h"
#include "pair/result_dir.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>

namespace gridlock::pair {
namespace {

using namespace gridlock::pair::testing;

// One GoogleTest JSON report, suites given apart from names (gtestJson splits at the first '.').
std::string report(const std::vector<std::tuple<std::string, std::string, std::string>>& tests) {
  nlohmann::json suites = nlohmann::json::array();
  for (auto& [suite, name, failure] : tests) {
    nlohmann::json t = {{"name", name}, {"status", "RUN"}, {"result", "COMPLETED"}};
    if (!failure.empty()) t["failures"] = {{{"failure", failure}, {"type", ""}}};
    suites.push_back({{"name", suite}, {"testsuite", {t}}});
  }
  return nlohmann::json{{"testsuites", suites}}.dump() + "\n";
}

Comparison compareDirs(const TempDir& d) {
  return compare(readTreeResults(d / "b"), readTreeResults(d / "c"));
}

TEST(TestIdentity, DottedSuiteAndDottedNameAreTwoTests) {
  TempDir d;
  writeFile(d / "b/a.json", report({{"A.B", "C", ""}, {"A", "B.C", ""}}));
  writeFile(d / "c/a.json", report({{"A.B", "C", "a.cpp:1\nbroke"}, {"A", "B.C", ""}}));
  Comparison c = compareDirs(d);
  EXPECT_EQ(exitCode(c), 1);
  std::ostringstream out;
  writeJson(c, out);
  nlohmann::json j = nlohmann::json::parse(out.str());
  ASSERT_EQ(j["tests"].size(), 2u);
  // Sorted by suite, then name; the display ids collide, suite and name do not.
  EXPECT_EQ(j["tests"][0]["id"], "A.B.C");
  EXPECT_EQ(j["tests"][0]["suite"], "A");
  EXPECT_EQ(j["tests"][0]["name"], "B.C");
  EXPECT_EQ(j["tests"][0]["category"], "passed_both");
  EXPECT_EQ(j["tests"][1]["id"], "A.B.C");
  EXPECT_EQ(j["tests"][1]["suite"], "A.B");
  EXPECT_EQ(j["tests"][1]["name"], "C");
  EXPECT_EQ(j["tests"][1]["category"], "new_failure");
  EXPECT_EQ(j["summary"]["new_failure"], 1);
  EXPECT_EQ(j["summary"]["passed_both"], 1);
}

TEST(TestIdentity, JUnitClassAndNameLineUpWithGoogleTest) {
  TempDir d;
  // The same tests as GoogleTest JSON and as ctest JUnit (classname == name == "Suite.Name"):
  // one row each, not two.
  writeFile(d / "b/a.json", report({{"S", "x", ""}}));
  writeFile(d / "b/ctest.xml", "<testsuite><testcase name=\"S.x\" classname=\"S.x\"/></testsuite>");
  writeFile(d / "c/a.json", report({{"S", "x", ""}}));
  writeFile(d / "c/ctest.xml", "<testsuite><testcase name=\"S.x\" classname=\"S.x\"/></testsuite>");
  Comparison c = compareDirs(d);
  std::ostringstream out;
  writeJson(c, out);
  nlohmann::json j = nlohmann::json::parse(out.str());
  ASSERT_EQ(j["tests"].size(), 1u);
  EXPECT_EQ(j["tests"][0]["id"], "S.x");
  EXPECT_EQ(j["tests"][0]["suite"], "S");
  EXPECT_EQ(j["tests"][0]["name"], "x");
}

// Names and messages that would break a table row or a line.
Comparison awkward() {
  TempDir d;
  writeFile(d / "b/a.json",
            report({{"Pipe", "a|b", ""}, {"Tick", "a`b", ""}, {"New", "line\nx", ""}}));
  writeFile(d / "c/a.json", report({{"Pipe", "a|b", "x.cpp:1\nexpected `a|b`\nsecond line"},
                                    {"Tick", "a`b", "back`tick | pipe \\| escaped"},
                                    {"New", "line\nx", "one\ntwo"}}));
  return compareDirs(d);
}

TEST(ReportEscaping, MarkdownCellsKeepTheTable) {
  std::ostringstream out;
  writeMarkdown(awkward(), out);
  std::string md = out.str();
  std::string rows =
      "| test | category | baseline | change | message |\n|---|---|---|---|---|\n"
      "| `New.line\\nx` | new_failure | pass | fail | one two |\n"
      "| `Pipe.a\\|b` | new_failure | pass | fail | expected \\`a\\|b\\` second line |\n"
      "| ``Tick.a`b`` | new_failure | pass | fail | back\\`tick \\| pipe \\\\\\| escaped |\n";
  EXPECT_NE(md.find(rows), std::string::npos) << md;
  EXPECT_NE(md.find("\n| 1 | back\\`tick \\| pipe \\\\\\| escaped |\n"), std::string::npos) << md;
  // Every table line has as many unescaped pipes as its header.
  std::istringstream lines(md);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| `", 0) != 0 && line.rfind("| ``", 0) != 0) continue;
    int pipes = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\\')
        ++i;
      else if (line[i] == '|')
        ++pipes;
    }
    EXPECT_EQ(pipes, 6) << line;
  }
}

TEST(ReportEscaping, TextKeepsOneLinePerTest) {
  std::ostringstream out;
  writeText(awkward(), out);
  std::string expected =
      "  CATEGORY     TEST         BASELINE  CHANGE  MESSAGE\n"
      "  new_failure  New.line\\nx  pass      fail    one two\n"
      "  new_failure  Pipe.a|b     pass      fail    expected `a|b` second line\n"
      "  new_failure  Tick.a`b     pass      fail    back`tick | pipe \\| escaped\n";
  EXPECT_NE(out.str().find(expected), std::string::npos) << out.str();
}

TEST(ReportEscaping, SignaturesNameTheirTestsByDisplayId) {
  Comparison c = awkward();
  ASSERT_EQ(c.signatures.size(), 3u);
  std::set<std::string> tests;
  for (const Signature& s : c.signatures) tests.insert(s.tests.begin(), s.tests.end());
  EXPECT_EQ(tests, (std::set<std::string>{"New.line\nx", "Pipe.a|b", "Tick.a`b"}));
}

}  // namespace
}  // namespace gridlock::pair
