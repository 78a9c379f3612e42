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

// An allow that covers no read is a warning in every run, and no failure of the gate but under
// --strict, where it is slack too. pkg/use.py: line 5's allow covers its read; line 9's (alone:
// lines 9 and 10) covers none; line 14's names dp where the read is tp's. pkg/vendor/, outside
// the scope, has no reads to cover: its allow is not judged.
TEST(Ratchet, AnAllowThatCoversNoReadIsAWarningAndFailsOnlyStrict) {
  std::string dir = makeTempDir("ratchet-unused");
  writeFile(dir + "/pkg/__init__.py", "");
  writeFile(dir + "/pkg/ps.py",
            "_G = None\n\n\ndef get_tp():\n    return _G\n\n\ndef get_dp():\n    return _G\n");
  writeFile(dir + "/pkg/use.py",
            "from pkg import ps\n\n\ndef f():\n"
            "    return ps.get_tp()  # gridlock: allow(logs the layout once)\n\n\ndef g():\n"
            "    # gridlock: allow(the read that was here is gone)\n    return None\n\n\n"
            "def h():\n    return ps.get_tp()  # gridlock: allow(dp: names the other group)\n");
  writeFile(dir + "/pkg/vendor/__init__.py", "");
  writeFile(dir + "/pkg/vendor/x.py", "# gridlock: allow-file(vendored, not ours)\n");
  writeFile(dir + "/p.json", R"({"name": "p",
  "scope": {"include": ["pkg/**"], "exclude": ["pkg/vendor/**"]},
  "accessors": [
    {"python": "pkg.ps.get_tp", "kind": "accessor", "group": "tp", "yields": "group"},
    {"python": "pkg.ps.get_dp", "kind": "accessor", "group": "dp", "yields": "group"}]})");
  const std::string unused9 =
      "pkg/use.py:9:5: warning: unused allow: it covers no read; remove it "
      "[gridlock-unused-suppression]\n";
  const std::string unused14 =
      "pkg/use.py:14:25: warning: unused allow: it covers no read; remove it "
      "[gridlock-unused-suppression]\n";

  CommandResult scan =
      runCommand("cd " + dir + " && " + kBin + " scan -q --no-cache --rules p.json --format json");
  ASSERT_EQ(scan.status, 0) << scan.err;
  auto j = nlohmann::json::parse(scan.out);
  EXPECT_EQ(j["summary"]["total"], 1);
  EXPECT_EQ(j["summary"]["suppressed"], 1);
  EXPECT_EQ(j["summary"]["unused_suppressions"], 2);
  EXPECT_EQ(j["unused_suppressions"], nlohmann::json::parse(R"js([
    {"file": "pkg/use.py", "line": 9, "column": 5,
     "text": "# gridlock: allow(the read that was here is gone)"},
    {"file": "pkg/use.py", "line": 14, "column": 25,
     "text": "# gridlock: allow(dp: names the other group)"}])js"));

  const std::string gate =
      "cd " + dir + " && " + kBin + " gate --no-cache --rules p.json --baseline b.json";
  ASSERT_EQ(runCommand(gate + " --update -q").status, 0);
  const std::string allowed = "allowed: pkg/use.py:5: pkg.ps.get_tp (logs the layout once)\n";
  CommandResult lax = runCommand(gate);
  EXPECT_EQ(lax.status, 0) << lax.err;
  EXPECT_EQ(lax.out,
            allowed + unused9 + unused14 + "gate: passed: 1 global reads, as in the baseline\n");

  CommandResult strict = runCommand(gate + " --strict");
  EXPECT_EQ(strict.status, 1) << strict.err;
  auto error = [](std::string w) { return w.replace(w.find(": warning: "), 11, ": error: "); };
  EXPECT_EQ(strict.out, allowed + error(unused9) + error(unused14) +
                            "gate: FAILED: 2 allow(s) cover no read (--strict): remove them\n");
  CommandResult github = runCommand(gate + " --strict --format github");
  EXPECT_EQ(github.out,
            "::error file=pkg/use.py,line=9,col=5,title=gridlock-unused-suppression::unused "
            "allow: it covers no read; remove it\n"
            "::error file=pkg/use.py,line=14,col=25,title=gridlock-unused-suppression::unused "
            "allow: it covers no read; remove it\n");
  CommandResult json = runCommand(gate + " --format json");
  EXPECT_EQ(nlohmann::json::parse(json.out)["unused_suppressions"], j["unused_suppressions"]);
}

}  // namespace
}  // namespace gridlock::test
