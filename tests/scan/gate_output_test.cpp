// A failing gate a reviewer can act on: every read of a new or risen key at its file:line:col
// with the fix; --format json and sarif, -o beside the text verdict, SARIF baselineState.
// (docs/scan.md, "Gate")
#include "scan/small_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gridlock::test {
namespace {

struct GateOutput : ::testing::Test {
  void SetUp() override {
    CommandResult made = p.runIn(".", "gate --update");
    ASSERT_EQ(made.status, 0) << made.err;
  }
  SmallProject p{"gate-output"};
};

// a_two's get_tp key rises 1 -> 2; b_new is a key the baseline lacks. The errors come in file
// and line order, as a compiler's do, whichever key they belong to.
TEST_F(GateOutput, EachReadOfANewOrRisenKeyIsAnErrorAtItsPlace) {
  p.write("core/a.cpp",
          "#include \"../ps.h\"\n"
          "#include \"shared.h\"\n"
          "void a_one() { ps::get_tp(); }\n"
          "void a_two() {\n"
          "  ps::get_tp();\n"
          "  ps::get_dp();\n"
          "  ps::get_tp();\n"
          "}\n");
  p.write("core/b.cpp",
          "#include \"../ps.h\"\n"
          "void b_one() { ps::get_dp(); }\n"
          "void b_new() { ps::get_tp(); }\n");
  CommandResult r = p.runIn(".", "gate");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out,
            "src/core/a.cpp:5:7: error: global reads rose from 1 to 2 here: global tp group "
            "from ps::get_tp in a_two; fix: thread a group parameter [gridlock-gate]\n"
            "src/core/a.cpp:7:7: error: global reads rose from 1 to 2 here: global tp group "
            "from ps::get_tp in a_two; fix: thread a group parameter [gridlock-gate]\n"
            "src/core/b.cpp:3:20: error: new global read: global tp group from ps::get_tp in "
            "b_new; fix: thread a group parameter [gridlock-gate]\n"
            "new:  src/core/b.cpp | b_new | ps::get_tp: 1 read(s) not in the baseline\n"
            "rose: src/core/a.cpp | a_two | ps::get_tp: 1 -> 2\n"
            "gate: FAILED: global reads rose (5 in the baseline, 7 now)\n"
            "gate: remove each read above (its fix says how), or allow a deliberate one with "
            "`// gridlock: allow(reason)` (docs/suppressions.md)\n");

  // -q: the errors and the verdict.
  CommandResult q = p.runIn(".", "gate -q");
  EXPECT_EQ(q.status, 1);
  EXPECT_EQ(q.out.find("gate: remove each read"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("src/core/b.cpp:3:20: error: new global read"), std::string::npos);

  // --color always: clang's colours (bold place, red error).
  CommandResult c = p.runIn(".", "gate --color always");
  EXPECT_NE(c.out.find("\033[1msrc/core/b.cpp:3:20: \033[0m\033[1;31merror: \033[0m\033[1mnew "
                       "global read: "),
            std::string::npos)
      << c.out;
  CommandResult never = p.runIn(".", "gate --color never");
  EXPECT_EQ(never.out.find('\033'), std::string::npos);
}

// A suppression the gate cannot honour is a clang-style warning at the comment's
// file:line:col, like every other diagnostic.
TEST_F(GateOutput, ABadSuppressionIsAWarningAtItsPlace) {
  p.write("core/b.cpp",
          "#include \"../ps.h\"\n"
          "void b_one() { ps::get_dp(); }  // gridlock: allow\n");
  CommandResult r = p.runIn(".", "gate");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "src/core/b.cpp:2:33: warning: suppression without a reason is ignored: write // "
            "gridlock: allow(why this read is deliberate) [gridlock-suppression]\n"
            "gate: passed: 5 global reads, as in the baseline\n");
}

TEST_F(GateOutput, JsonNamesEachChangeWithItsReads) {
  p.write("core/b.cpp",
          "#include \"../ps.h\"\n"
          "void b_one() {}\n"
          "void b_new() { ps::get_tp(); }\n");
  CommandResult r = p.runIn(".", "gate --format json");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err, "gate: FAILED: global reads rose (5 in the baseline, 5 now)\n");
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["gate"]["verdict"], "failed");
  EXPECT_EQ(j["gate"]["exit"], 1);
  EXPECT_EQ(j["gate"]["new"], 1);
  EXPECT_EQ(j["gate"]["rose"], 0);
  EXPECT_EQ(j["gate"]["fell"], 1);
  EXPECT_EQ(j["gate"]["baseline_total"], 5);
  ASSERT_EQ(j["changes"].size(), 2u);
  EXPECT_EQ(j["changes"][0],
            nlohmann::json::parse(R"({"change": "new", "access": "read", "file": "src/core/b.cpp",
  "enclosing": "b_new", "name": "ps::get_tp", "before": 0, "after": 1,
  "reads": [{"file": "src/core/b.cpp", "line": 3, "column": 20, "kind": "accessor",
             "group": "tp", "fix": "thread",
             "message": "global tp group from ps::get_tp in b_new; fix: thread a group parameter"}]})"));
  EXPECT_EQ(j["changes"][1],
            nlohmann::json::parse(R"({"change": "fell", "access": "read", "file": "src/core/b.cpp",
  "enclosing": "b_one", "name": "ps::get_dp", "before": 1, "after": 0, "reads": []})"));
}

// One run writes the SARIF file and prints the verdict. The one new read is `new` (level
// `error`), every other result `unchanged`, and the key that fell one `absent` result.
TEST_F(GateOutput, SarifBaselineStateBesideTheTextVerdict) {
  p.write("core/b.cpp",
          "#include \"../ps.h\"\n"
          "void b_one() {}\n"
          "void b_new() { ps::get_tp(); }\n");
  CommandResult r =
      p.runIn(".", "gate --format sarif -o gate.sarif --docs-url https://docs.example/gl");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("src/core/b.cpp:3:20: error: new global read: global tp group from "
                       "ps::get_tp in b_new; fix: thread a group parameter [gridlock-gate]\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("gate: FAILED: global reads rose (5 in the baseline, 5 now)\n"),
            std::string::npos);
  auto s = nlohmann::json::parse(readFile(p.dir() + "/gate.sarif"));
  EXPECT_EQ(s["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"],
            "https://docs.example/gl/scan.md#what-counts-as-a-read");
  const auto& results = s["runs"][0]["results"];
  ASSERT_EQ(results.size(), 7u);  // a.cpp 3, shared.h 1, b_new, the edge read, b_one absent
  std::map<std::string, int> states;
  for (const auto& res : results) ++states[res["baselineState"].get<std::string>()];
  EXPECT_EQ(states, (std::map<std::string, int>{{"new", 1}, {"unchanged", 5}, {"absent", 1}}));
  // What the gate fails on is an error; the reads the baseline holds warnings; the edge read
  // and the fallen key notes.
  std::map<std::string, int> levels;
  for (const auto& res : results) ++levels[res["level"].get<std::string>()];
  EXPECT_EQ(levels, (std::map<std::string, int>{{"error", 1}, {"warning", 4}, {"note", 2}}));
  for (const auto& res : results) {
    const auto& loc = res["locations"][0]["physicalLocation"];
    if (res["baselineState"] == "new") {
      EXPECT_EQ(res["level"], "error");
      EXPECT_EQ(loc["artifactLocation"]["uri"], "src/core/b.cpp");
      EXPECT_EQ(loc["region"]["startLine"], 3);
      EXPECT_EQ(loc["region"]["startColumn"], 20);
    }
    if (res["baselineState"] == "absent") {
      EXPECT_EQ(res["ruleId"], "gridlock-gate-fell");
      EXPECT_EQ(loc["artifactLocation"]["uri"], "src/core/b.cpp");
      EXPECT_EQ(res["message"]["text"],
                "global reads fell: src/core/b.cpp | b_one | "
                "ps::get_dp: 1 -> 0");
    }
  }
}

}  // namespace
}  // namespace gridlock::test
