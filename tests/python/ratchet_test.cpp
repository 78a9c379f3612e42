// The gate as a ratchet keeps no slack when asked (docs/scan.md, "Gate"): `gate --strict`
// fails when counts fell and the baseline was not tightened, as Megatron-LM's ratchet (PR #6258)
// fails, until `gate --update` tightens it.
#include "support/python_project.h"
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gridlock::test {
namespace {

const std::string kBin = GRIDLOCK_BIN;
const std::string kTwoReads =
    "from pkg import ps\n\n\ndef f():\n    return ps.get_tp()\n\n\ndef g():\n    return "
    "ps.get_tp()\n";
const std::string kOneRead = "from pkg import ps\n\n\ndef f():\n    return ps.get_tp()\n";

TEST(Ratchet, StrictFailsWhenCountsFellAndTheBaselineWasNotTightened) {
  std::string dir = makeTempDir("ratchet-strict");
  writePythonProject(dir);
  writeFile(dir + "/pkg/use.py", kTwoReads);
  const std::string gate =
      "cd " + dir + " && " + kBin + " gate --no-cache --rules py.json --baseline b.json";
  ASSERT_EQ(runCommand(gate + " --update -q").status, 0);
  writeFile(dir + "/pkg/use.py", kOneRead);  // g's read is gone

  const std::string fell = "fell: pkg/use.py | pkg.use.g | pkg.ps.get_tp: 1 -> 0\n";
  CommandResult lax = runCommand(gate);
  EXPECT_EQ(lax.status, 0) << lax.err;
  EXPECT_EQ(lax.out, fell +
                         "gate: passed: counts fell from 2 to 1; run with --update to shrink the "
                         "baseline\n");

  const std::string failed =
      "gate: FAILED: counts fell from 2 to 1 but the baseline was not tightened (--strict): run "
      "`gridlock gate --update` and commit the baseline\n";
  CommandResult strict = runCommand(gate + " --strict");
  EXPECT_EQ(strict.status, 1) << strict.err;
  EXPECT_EQ(strict.out, fell + failed);
  // -q keeps what fails it: the fallen key and the verdict.
  CommandResult quiet = runCommand(gate + " --strict -q");
  EXPECT_EQ(quiet.status, 1);
  EXPECT_EQ(quiet.out, fell + failed);
  CommandResult json = runCommand(gate + " --strict --format json");
  EXPECT_EQ(json.status, 1);
  auto j = nlohmann::json::parse(json.out)["gate"];
  EXPECT_EQ(j["verdict"], "failed");
  EXPECT_EQ(j["exit"], 1);
  EXPECT_EQ(j["strict"], true);
  EXPECT_EQ(j["fell"], 1);
  CommandResult github = runCommand(gate + " --strict --format github");
  EXPECT_EQ(github.status, 1);
  EXPECT_EQ(github.out,
            "::error file=pkg/use.py,title=gridlock-gate-fell::global reads fell: pkg/use.py | "
            "pkg.use.g | pkg.ps.get_tp: 1 -> 0; `gridlock gate --update` shrinks the baseline\n");

  // Tightened: --update passes under --strict, and the gate after it.
  CommandResult update = runCommand(gate + " --strict --update");
  EXPECT_EQ(update.status, 0) << update.err;
  EXPECT_EQ(update.out, fell + "gate: baseline shrunk from 2 to 1 reads\n");
  CommandResult after = runCommand(gate + " --strict");
  EXPECT_EQ(after.status, 0) << after.err;
  EXPECT_EQ(after.out, "gate: passed: 1 global reads, as in the baseline\n");
}

}  // namespace
}  // namespace gridlock::test
