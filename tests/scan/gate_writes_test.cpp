// Writes are gated like reads, keyed apart; an access that hands a global where it may be read
// (`set(&heads)`, `cfg.reset()`) is a read. A baseline made before writes were gated still
// works: its writes are not judged until a full `--update` records them. (docs/scan.md, "Gate")
#include "scan/temp_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace gridlock::test {
namespace {

//   src/state.h   st::heads (an int) and st::cfg (a struct): the globals of pack "st"
//   src/a.cpp     configure: writes heads (3:24); per_rank: reads heads (4:34)
// One counted read, one counted write.
struct GateWrites : ::testing::Test {
  void SetUp() override {
    p.write("state.h",
            "#pragma once\n"
            "namespace st {\n"
            "struct Cfg { int stage; void reset(); };\n"
            "extern int heads;\n"
            "extern Cfg cfg;\n"
            "void set(int* p);\n"
            "}  // namespace st\n");
    write("");
    writeFile(p.dir() + "/st.json",
              R"({"name": "st", "globals": [{"variable": "st::heads"}, {"variable": "st::cfg"}]}
)");
    p.database(p.entry("a.cpp"));
    CommandResult made = p.run(gate + " --update");
    ASSERT_EQ(made.status, 0) << made.err;
    EXPECT_EQ(made.out,
              "gate: created baseline " + base + " with 1 reads and 1 writes in 2 keys\n");
  }
  // a.cpp with `more` after its two functions (from line 5).
  void write(const std::string& more) const {
    p.write("a.cpp",
            "#include \"state.h\"\n"
            "\n"
            "void configure() { st::heads = 8; }\n"
            "int per_rank(int w) { return st::heads / w; }\n" +
                more);
  }
  TempProject p{"gate-writes"};
  std::string base = p.dir() + "/base.json";
  std::string gate = "gate " + p.scanArgs("st.json") + " --baseline " + base;
};

TEST_F(GateWrites, BaselineKeepsWritesApart) {
  EXPECT_EQ(readFile(base),
            "{\n"
            "  \"gridlock_baseline\": 1,\n"
            "  \"root\": \"src\",\n"
            "  \"total\": 1,\n"
            "  \"entries\": [\n"
            "    {\n"
            "      \"file\": \"a.cpp\",\n"
            "      \"enclosing\": \"per_rank\",\n"
            "      \"name\": \"st::heads\",\n"
            "      \"count\": 1\n"
            "    }\n"
            "  ],\n"
            "  \"write_total\": 1,\n"
            "  \"write_entries\": [\n"
            "    {\n"
            "      \"file\": \"a.cpp\",\n"
            "      \"enclosing\": \"configure\",\n"
            "      \"name\": \"st::heads\",\n"
            "      \"count\": 1\n"
            "    }\n"
            "  ]\n"
            "}\n");
  CommandResult same = p.run(gate);
  EXPECT_EQ(same.status, 0) << same.err;
  EXPECT_EQ(same.out, "gate: passed: 1 global reads and 1 writes, as in the baseline\n");
}

// A second write of the same global fails the gate like a new read.
TEST_F(GateWrites, ANewWriteFails) {
  write("void second() { st::heads = 4; }\n");
  CommandResult r = p.run(gate);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out,
            "a.cpp:5:21: error: new global write: write to global state st::heads in second "
            "[gridlock-gate]\n"
            "new:  a.cpp | second | st::heads (write): 1 write(s) not in the baseline\n"
            "gate: FAILED: global writes rose (1 in the baseline, 2 now)\n"
            "gate: remove each read or write above (its fix says how), or allow a deliberate "
            "one with `// gridlock: allow(reason)` (docs/suppressions.md)\n");
  std::string before = readFile(base);
  CommandResult refuse = p.run(gate + " --update");
  EXPECT_EQ(refuse.status, 1);
  EXPECT_EQ(readFile(base), before);

  CommandResult j = p.run(gate + " --format json");
  EXPECT_EQ(j.status, 1);
  auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["gate"]["baseline_total"], 1);
  EXPECT_EQ(doc["gate"]["total"], 1);
  EXPECT_EQ(doc["gate"]["baseline_writes"], 1);
  EXPECT_EQ(doc["gate"]["writes"], 2);
  EXPECT_EQ(doc["gate"]["next_writes"], 2);
  EXPECT_EQ(doc["gate"]["writes_checked"], true);
  ASSERT_EQ(doc["changes"].size(), 1u);
  EXPECT_EQ(doc["changes"][0], nlohmann::json::parse(R"({"change": "new", "access": "write",
  "file": "a.cpp", "enclosing": "second", "name": "st::heads", "before": 0, "after": 1,
  "reads": [{"file": "a.cpp", "line": 5, "column": 21, "kind": "global_write", "group": "",
             "fix": "", "message": "write to global state st::heads in second"}]})"));

  CommandResult s = p.run(gate + " --format sarif");
  EXPECT_EQ(s.status, 1);
  auto sarif = nlohmann::json::parse(s.out);
  std::map<std::string, std::string> states;  // "rule line" -> baselineState
  for (const auto& res : sarif["runs"][0]["results"])
    states[res["ruleId"].get<std::string>() + " " +
           std::to_string(
               res["locations"][0]["physicalLocation"]["region"]["startLine"].get<int>())] =
        res["baselineState"];
  EXPECT_EQ(states, (std::map<std::string, std::string>{{"gridlock-global-read 4", "unchanged"},
                                                        {"gridlock-global-write 3", "unchanged"},
                                                        {"gridlock-global-write 5", "new"}}));
}

// Handing the global's address on, or calling a non-const method of it, is a read: in the
// count, and a new one fails the gate.
TEST_F(GateWrites, HandingTheGlobalOnIsARead) {
  write(
      "void reset_all() {\n"
      "  st::set(&st::heads);\n"
      "  st::cfg.reset();\n"
      "}\n");
  CommandResult r = p.run(gate);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out,
            "a.cpp:6:16: error: new global read: read of global state st::heads in reset_all, "
            "which may also change it; fix: thread a group parameter [gridlock-gate]\n"
            "a.cpp:7:7: error: new global read: read of global state st::cfg in reset_all, which "
            "may also change it; fix: thread a group parameter [gridlock-gate]\n"
            "new:  a.cpp | reset_all | st::cfg: 1 read(s) not in the baseline\n"
            "new:  a.cpp | reset_all | st::heads: 1 read(s) not in the baseline\n"
            "gate: FAILED: global reads rose (1 in the baseline, 3 now)\n"
            "gate: remove each read above (its fix says how), or allow a deliberate one with "
            "`// gridlock: allow(reason)` (docs/suppressions.md)\n");
  CommandResult scan = p.run("scan --format json " + p.scanArgs("st.json"));
  EXPECT_EQ(scan.status, 0) << scan.err;
  auto j = nlohmann::json::parse(scan.out);
  EXPECT_EQ(j["summary"]["total"], 3);
  EXPECT_EQ(j["summary"]["writes"], 1);
  std::map<int, std::string> byLine;  // line -> "kind mutates"
  for (const auto& read : j["reads"])
    byLine[read["line"].get<int>()] =
        read["kind"].get<std::string>() + " " + (read["mutates"].get<bool>() ? "mutates" : "reads");
  EXPECT_EQ(byLine, (std::map<int, std::string>{{3, "global_write mutates"},
                                                {4, "global_state reads"},
                                                {6, "global_state mutates"},
                                                {7, "global_state mutates"}}));
}

// A baseline without "write_entries" (made before writes were gated) judges its reads as
// before and says that its writes are not checked; a full --update records them.
TEST_F(GateWrites, AnOlderBaselineRecordsItsWritesOnUpdate) {
  std::string made = readFile(base);
  auto doc = nlohmann::ordered_json::parse(made);
  doc.erase("write_total");
  doc.erase("write_entries");
  writeFile(base, doc.dump(2) + "\n");
  write("void second() { st::heads = 4; }\n");
  CommandResult r = p.run(gate);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "gate: note: the baseline " + base +
                       " records no writes (it was made before writes were gated): 2 write(s) "
                       "not checked; a full `gridlock gate --update` records them\n"
                       "gate: passed: 1 global reads, as in the baseline\n");
  // A run over some files would record only theirs: it leaves the file as it is.
  std::string old = readFile(base);
  CommandResult subset = p.run(gate + " --update " + p.src() + "/a.cpp");
  EXPECT_EQ(subset.status, 0) << subset.err;
  EXPECT_EQ(readFile(base), old);

  CommandResult update = p.run(gate + " --update");
  EXPECT_EQ(update.status, 0) << update.err;
  EXPECT_EQ(update.out,
            "gate: recorded 2 write(s) in baseline " + base + ", which counted reads only\n");
  auto recorded = nlohmann::json::parse(readFile(base));
  EXPECT_EQ(recorded["write_total"], 2);
  EXPECT_EQ(recorded["write_entries"].size(), 2u);
  CommandResult after = p.run(gate);
  EXPECT_EQ(after.status, 0);
  EXPECT_EQ(after.out, "gate: passed: 1 global reads and 2 writes, as in the baseline\n");
}

// A setter (the pack's `setters`) writes at each call: a second call fails the gate as a new
// write, keyed by the setter, and the ratchet's --update refuses it.
TEST(GateWritesSetters, ANewSetterCallFailsTheGate) {
  TempProject p{"gate-setters"};
  p.write("state.h",
          "#pragma once\n"
          "namespace st {\n"
          "extern int heads;\n"
          "void set_heads(int n);\n"
          "}  // namespace st\n");
  auto write = [&](const std::string& more) {
    p.write("a.cpp",
            "#include \"state.h\"\n"
            "\n"
            "void configure() { st::set_heads(8); }\n"
            "int per_rank(int w) { return st::heads / w; }\n" +
                more);
  };
  write("");
  writeFile(p.dir() + "/st.json",
            R"({"name": "st", "globals": [{"variable": "st::heads"}],
  "setters": [{"function": "st::set_heads", "writes": "st::heads"}]}
)");
  p.database(p.entry("a.cpp"));
  const std::string base = p.dir() + "/base.json";
  const std::string gate = "gate " + p.scanArgs("st.json") + " --baseline " + base;
  CommandResult made = p.run(gate + " --update");
  ASSERT_EQ(made.status, 0) << made.err;
  EXPECT_EQ(made.out, "gate: created baseline " + base + " with 1 reads and 1 writes in 2 keys\n");
  write("void second() { st::set_heads(4); }\n");
  CommandResult r = p.run(gate);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("new:  a.cpp | second | st::set_heads (write): 1 write(s) not in the "
                       "baseline\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("gate: FAILED: global writes rose (1 in the baseline, 2 now)\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(p.run(gate + " --update").status, 1);
}

}  // namespace
}  // namespace gridlock::test
