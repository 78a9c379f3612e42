// The binary as users meet it: `gridlock --version`, packs named by name from any directory, and
// an unknown name that says where it looked. (The installed, moved binary: relocate.sh.)
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
                kSrc + "/rules (source tree)\n");
}

}  // namespace
}  // namespace gridlock::test
