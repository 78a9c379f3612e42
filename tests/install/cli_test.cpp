// The binary as users meet it: `gridlock --version`, packs named by name from any directory, and
// an unknown name that says where it looked, what is shipped and what it may have meant. (The
// installed, moved binary: relocate.sh.)
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace gridlock::test {
namespace {

const std::string kBin = GRIDLOCK_BIN;
const std::string kSrc = GRIDLOCK_SOURCE_DIR;
// One translation unit: core/comm.cpp has 8 annotated reads (`expect-read`, one x2) and its
// core/templates.h 3 more, none in an edge file.
// Without the cache: the second scan would hit the first's entries (rule packs are keyed by
// their rules, not their paths) and report other cache counts.
const std::string kScanArgs = std::string(" scan --no-cache --format json -p ") +
                              GRIDLOCK_BINARY_DIR + "/fixtures/scan --root " +
                              GRIDLOCK_SOURCE_DIR "/fixtures/scan " +
                              GRIDLOCK_SOURCE_DIR "/fixtures/scan/core/comm.cpp";

TEST(InstallCli, VersionNamesGridlockAndTheClangItWasBuiltWith) {
  CommandResult r = runCommand(kBin + " --version");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "gridlock " GRIDLOCK_EXPECTED_VERSION
                   " (built with Clang " GRIDLOCK_EXPECTED_CLANG ")\n");
}

TEST(InstallCli, RulesByNameFromAnotherDirectoryEqualRulesByPath) {
  std::string elsewhere = makeTempDir("elsewhere");
  CommandResult byName = runCommand("cd " + elsewhere + " && " + kBin + kScanArgs +
                                    " --rules gridlock-legacy --rules mpi");
  CommandResult byPath =
      runCommand(kBin + kScanArgs + " --rules " + kSrc + "/rules/gridlock-legacy.json --rules " +
                 kSrc + "/rules/mpi.json");
  std::filesystem::remove_all(elsewhere);
  ASSERT_EQ(byName.status, 0) << byName.err;
  ASSERT_EQ(byPath.status, 0) << byPath.err;
  auto named = nlohmann::json::parse(byName.out);
  EXPECT_EQ(named["summary"]["total"], 11);
  EXPECT_EQ(byName.out, byPath.out);
}

TEST(InstallCli, AnUnknownPackNameIsBadInputNamingWhereItLooked) {
  CommandResult r = runCommand(kBin + kScanArgs + " --rules gridlock-legcy");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "gridlock: error: unknown rule pack \"gridlock-legcy\": no gridlock-legcy.json in " +
                kSrc + "/rules (source tree), " + kSrc +
                "/rules/examples (source tree examples); the shipped packs are gridlock-legacy, "
                "megatron-core, megatron-core-ratchet, mpi; the examples are deepspeed-autotp, "
                "hpccg, infinitrain, llmc, lulesh, minife; did you mean "
                "\"gridlock-legacy\"?\n");
}

// gridlock.1 is made from the help text when the binary is built: the same words as roff (each
// '-' a minus sign, so options copy as typed), one usage line per command in SYNOPSIS, each
// command's help under COMMANDS; and it renders without a warning.
TEST(InstallCli, TheManPageIsTheHelpText) {
  const std::string path = GRIDLOCK_BINARY_DIR "/gridlock.1";
  std::string page = readFile(path);
  const std::string head =
      ".\\\" Generated from `gridlock --help` by cmake/man_page.cmake; edit "
      "tool/cli/help_text.cpp.\n"
      ".TH GRIDLOCK 1 \"\" \"gridlock " GRIDLOCK_EXPECTED_VERSION
      "\" \"User Commands\"\n"
      ".SH NAME\n"
      "gridlock \\- find and remove reads of global process\\-group state\n"
      ".SH SYNOPSIS\n"
      ".nf\n"
      "gridlock [OPTIONS] COMMAND\n"
      "gridlock scan [OPTIONS] [files...] [\\-\\- COMPILER\\-ARG...]\n"
      "gridlock gate [OPTIONS] [files...] [\\-\\- COMPILER\\-ARG...]\n"
      "gridlock callers [OPTIONS] [files...] [\\-\\- COMPILER\\-ARG...]\n"
      "gridlock rewrite [OPTIONS] [files...] [\\-\\- COMPILER\\-ARG...]\n"
      "gridlock merge [OPTIONS] files...\n"
      "gridlock grid [OPTIONS]\n"
      "gridlock shard [OPTIONS]\n"
      "gridlock pair [OPTIONS]\n"
      ".fi\n"
      ".SH DESCRIPTION\n"
      ".nf\n"
      "Usage: gridlock [OPTIONS] COMMAND\n";
  EXPECT_EQ(page.substr(0, head.size()), head);
  for (const char* part :
       {"\nExit status:\n  0      success: the report is complete",
        "\n  1      the check found what it guards against: a count rose above the gate's "
        "baseline,\n         pair found a regression, rewrite \\-\\-diff \\-\\-check found "
        "edits to make\n",
        "\n.SH COMMANDS\n.SS gridlock scan\n.nf\nInventory of global process\\-group reads\n"
        "Usage: gridlock scan [OPTIONS] [files...] [\\-\\- COMPILER\\-ARG...]\n",
        "\n.SS gridlock pair\n.nf\n",
        // The help's Environment section is ENVIRONMENT, after COMMANDS: every variable read.
        "\n.SH ENVIRONMENT\n.nf\n  GRIDLOCK_PYRIGHT            rewrite: the pyright that checks a "
        "Python change, its index.js\n",
        "\n  GRIDLOCK_SAFE_DIRECTORIES   directories (colon\\-separated, or *) whose "
        ".gridlock.json,\n",
        "\n  GRIDLOCK_PROGRESS_INTERVAL  seconds between progress lines when stderr is no "
        "terminal\n",
        "\n  NO_COLOR                    set and not empty: \\-\\-color auto colours nothing "
        "(no\\-color.org)\n.fi\n.SH SEE ALSO\nclang\\-tidy(1), bear(1)\n"})
    EXPECT_NE(page.find(part), std::string::npos) << part;
  EXPECT_EQ(page.find("Environment:"), std::string::npos);  // not in DESCRIPTION too
  CommandResult lint = runCommand("groff -man -Tutf8 -ww -z " + path);
  EXPECT_EQ(lint.status, 0);
  EXPECT_EQ(lint.err, "");
  // As man shows it: the help's own lines.
  CommandResult shown = runCommand("MANWIDTH=120 man -l " + path + " 2>&1 | col -b");
  EXPECT_NE(shown.out.find("       gridlock rewrite [OPTIONS] [files...] [-- COMPILER-ARG...]\n"),
            std::string::npos)
      << shown.out;
}

}  // namespace
}  // namespace gridlock::test
