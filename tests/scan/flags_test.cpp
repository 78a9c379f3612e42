// The same flags mean the same thing on every command: -q, --color, compiler arguments after
// `--`, --rules that never takes a file, the progress line when stderr is a pipe, and option
// errors with the `gridlock: error:` prefix. (docs/scan.md)
#include "scan/small_project.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <regex>
#include <sstream>

namespace gridlock::test {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// stderr through a pipe (`2>&1 >/dev/null | cat`): a line after every unit with the interval
// at 0; none with -q.
TEST(Flags, ProgressLineWhenStderrIsAPipe) {
  SmallProject p("flags-progress");
  CommandResult every =
      runCommand("cd " + shellQuote(p.dir()) + " && GRIDLOCK_PROGRESS_INTERVAL=0 " + GRIDLOCK_BIN +
                 " scan --jobs 1 2>&1 >/dev/null | cat");
  ASSERT_EQ(every.status, 0) << every.err;
  std::vector<std::string> got = lines(every.out);
  ASSERT_EQ(got.size(), 3u) << every.out;
  // Units finish in the frontend's order; after the last, all five counted reads are in (the
  // edge read is not counted).
  for (size_t i = 0; i < 2; ++i)
    EXPECT_TRUE(std::regex_match(got[i], std::regex("gridlock: " + std::to_string(i + 1) +
                                                    "/3 translation units, [0-5] reads, "
                                                    "[0-9]+\\.[0-9] s")))
        << got[i];
  EXPECT_TRUE(std::regex_match(
      got[2], std::regex("gridlock: 3/3 translation units, 5 reads, [0-9]+\\.[0-9] s")))
      << got[2];

  CommandResult quiet =
      runCommand("cd " + shellQuote(p.dir()) + " && GRIDLOCK_PROGRESS_INTERVAL=0 " + GRIDLOCK_BIN +
                 " scan -q --jobs 1 2>&1 >/dev/null | cat");
  EXPECT_EQ(quiet.out, "");
}

// Arguments after `--` are compiler arguments for every unit, as repeated --extra-arg.
TEST(Flags, CompilerArgumentsAfterDoubleDash) {
  SmallProject p("flags-dashdash");
  p.write("core/b.cpp",
          "#include \"../ps.h\"\n"
          "void b_one() { ps::get_dp(); }\n"
          "#ifdef EXTRA\n"
          "void b_extra() { ps::get_tp(); }\n"
          "#endif\n");
  CommandResult plain = p.runIn(".", "scan --format json");
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(nlohmann::json::parse(plain.out)["summary"]["total"], 5);
  CommandResult extra = p.runIn(".", "scan --format json -- -DEXTRA");
  ASSERT_EQ(extra.status, 0) << extra.err;
  EXPECT_EQ(nlohmann::json::parse(extra.out)["summary"]["total"], 6);
  CommandResult gate = p.runIn(".", "gate --update -- -DEXTRA");
  ASSERT_EQ(gate.status, 0) << gate.err;
  EXPECT_NE(gate.out.find("with 6 reads in 6 keys"), std::string::npos) << gate.out;

  CommandResult grid = p.runIn(".", "grid --world 2 --tp 2 --pp 1 -- -DEXTRA");
  EXPECT_EQ(grid.status, 2);
  EXPECT_EQ(grid.err, "gridlock: error: grid takes no compiler arguments after --\n");
}

// --rules takes one value each time: the file after it is a file. A name is looked up beside
// the config before the shipped packs.
TEST(Flags, RulesNeverSwallowAFile) {
  SmallProject p("flags-rules");
  CommandResult r = p.runIn(".", "scan --format json --rules ours src/core/b.cpp");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["files_scanned"], 1);
  EXPECT_EQ(j["summary"]["total"], 1);
}

TEST(Flags, OptionErrorsCarryThePrefix) {
  SmallProject p("flags-errors");
  for (const char* args : {"scan --format xml", "gate --bogus", "scan --color sometimes",
                           "pair --reruns many", "frobnicate"}) {
    CommandResult r = p.runIn(".", args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err.rfind("gridlock: error: ", 0), 0u) << args << ": " << r.err;
    EXPECT_EQ(r.out, "") << args;
  }
}

TEST(Flags, ScanColorsItsDiagnostics) {
  SmallProject p("flags-color");
  CommandResult c = p.runIn(".", "scan --color always");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.out.find("\033[1msrc/core/a.cpp:3:20: \033[0m\033[1;35mwarning: \033[0m\033[1m"
                       "global tp group from ps::get_tp in a_one"),
            std::string::npos)
      << c.out;
  CommandResult never = p.runIn(".", "scan --color never");
  EXPECT_EQ(never.out.find('\033'), std::string::npos);
  EXPECT_NE(never.out.find("src/core/a.cpp:3:20: warning: global tp group from ps::get_tp in "
                           "a_one; fix: thread a group parameter [gridlock-global-read]\n"),
            std::string::npos)
      << never.out;
}

}  // namespace
}  // namespace gridlock::test
