// Partial runs see the whole program (docs/scan.md, "Partial runs"): a scan of some paths keeps
// the laundered reads of calls into helpers of other files, and a gate over some paths (files
// given, or --changed-since) fails on a new laundered read and judges again the unchanged
// callers of a helper whose file it checks, while every other file's keys stay as they are.
// The package is fixtures/rewrite/py_partial's: pkg/ps.py (the accessor), pkg/helper.py
// (`gather` falls back on it), pkg/user.py (`gather(x)` at 5:12).
#include "support/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

const std::string kBin = GRIDLOCK_BIN;
const std::string kCase = GRIDLOCK_SOURCE_DIR "/fixtures/rewrite/py_partial";
const std::string kGit = "git -c user.name=t -c user.email=t@t -c init.defaultBranch=main";

// A copy of the case's package in a fresh directory, with its pack as p.json.
std::string copyOfTheCase(const std::string& tag) {
  std::string dir = makeTempDir(tag);
  fs::copy(kCase + "/input", dir, fs::copy_options::recursive);
  fs::copy_file(kCase + "/gridlock.json", dir + "/p.json");
  return dir;
}

CommandResult in(const std::string& dir, const std::string& command) {
  return runCommand("cd " + dir + " && " + command);
}

const std::string kLaunderedInUse =
    "pkg/user.py:5:12: warning: laundered global tp group: this call of pkg.helper.gather "
    "leaves the group out, so it reads pkg.ps.get_tp_group in pkg.user.use; fix: thread a "
    "group parameter [gridlock-global-read]\n";

// `scan pkg/user.py` reports the read the whole scan reports there: the call launders
// helper.py's fallback, though helper.py is not among the paths.
TEST(PartialRun, ScanOfACallerKeepsItsLaunderedRead) {
  std::string dir = copyOfTheCase("partial-scan");
  const std::string scan = kBin + " scan --no-cache --rules p.json";
  CommandResult whole = in(dir, scan + " --format json");
  ASSERT_EQ(whole.status, 0) << whole.err;
  CommandResult part = in(dir, scan + " --format json pkg/user.py");
  ASSERT_EQ(part.status, 0) << part.err;
  auto w = nlohmann::json::parse(whole.out), p = nlohmann::json::parse(part.out);
  EXPECT_EQ(p["summary"]["total"], 1);
  EXPECT_EQ(p["summary"]["files_scanned"], 1);
  ASSERT_EQ(p["reads"].size(), 1u) << part.out;
  const auto& read = p["reads"][0];
  EXPECT_EQ(read["file"], "pkg/user.py");
  EXPECT_EQ(read["line"], 5);
  EXPECT_EQ(read["column"], 12);
  EXPECT_EQ(read["kind"], "laundered");
  EXPECT_EQ(read["name"], "pkg.helper.gather");
  EXPECT_EQ(read["launders"], "pkg.ps.get_tp_group");
  EXPECT_EQ(read["enclosing"], "pkg.user.use");
  nlohmann::json same;
  for (const auto& r : w["reads"])
    if (r["file"] == "pkg/user.py") same.push_back(r);
  EXPECT_EQ(same, p["reads"]);

  CommandResult text = in(dir, scan + " pkg/user.py");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_TRUE(text.out.starts_with(kLaunderedInUse + "\n")) << text.out;
}

// `scan pkg/helper.py` reports helper.py's fallback and the calls anywhere that launder it:
// what a change of helper.py is judged on.
TEST(PartialRun, ScanOfAHelperReportsTheCallsThatLaunderIt) {
  std::string dir = copyOfTheCase("partial-helper");
  CommandResult r = in(dir, kBin + " scan --no-cache --rules p.json pkg/helper.py");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with(
      "pkg/helper.py:6:23: warning: global tp group from pkg.ps.get_tp_group in "
      "pkg.helper.gather (fallback: runs only when no explicit group is passed; 1 call site(s) "
      "leave it out); fix: require the explicit argument [gridlock-global-read]\n" +
      kLaunderedInUse + "\n"))
      << r.out;
}

// A module of the rest of the tree (the run's context) that does not parse is an error as a
// module given is: what its broken part calls (here, perhaps gather without its group) is
// missing from the program the run decides on. scan and gate over pkg/user.py alike.
TEST(PartialRun, AContextModuleThatDoesNotParseIsAnError) {
  std::string dir = copyOfTheCase("partial-broken");
  const std::string gate = kBin + " gate --no-cache -q --rules p.json --baseline b.json";
  ASSERT_EQ(in(dir, gate + " --update").status, 0);  // the tree as it was: 2 reads
  writeFile(dir + "/pkg/broken.py",
            "from pkg.helper import gather\n\n\ndef other(x):\n    return gather(x) +\n");
  const std::string error =
      "gridlock: error: pkg/broken.py failed to parse; its reads may be incomplete\n"
      "  pkg/broken.py:5:5: error: invalid syntax at 'return'\n";
  const std::string refused =
      "gridlock: 1 file(s) failed to parse; the inventory is incomplete (pass "
      "--allow-parse-errors to accept that)\n";
  CommandResult scan = in(dir, kBin + " scan --no-cache -q --rules p.json pkg/user.py");
  EXPECT_EQ(scan.status, 2);
  EXPECT_EQ(scan.err, error + refused);
  EXPECT_TRUE(scan.out.starts_with(
      kLaunderedInUse +
      "pkg/broken.py: error: failed to parse; its reads may be incomplete "
      "[gridlock-parse-error]\n  pkg/broken.py:5:5: error: invalid syntax at 'return'\n\n"))
      << scan.out;
  CommandResult gated = in(dir, gate + " pkg/user.py");
  EXPECT_EQ(gated.status, 2);
  EXPECT_NE(gated.err.find(error), std::string::npos) << gated.err;
  CommandResult allowed =
      in(dir, kBin + " scan --no-cache -q --allow-parse-errors --rules p.json pkg/user.py");
  EXPECT_EQ(allowed.status, 0);
  EXPECT_EQ(allowed.err, error);
}

// A sharded scan's facts files would hold the units of the paths without the rest of the tree
// their laundered reads come from: refused, nothing written.
TEST(PartialRun, AFactsFileTakesNoPaths) {
  std::string dir = copyOfTheCase("partial-shard");
  for (const std::string shard : {" --shard 1/2", ""}) {
    CommandResult r = in(
        dir, kBin + " scan --no-cache --rules p.json" + shard + " --facts-out f.facts pkg/user.py");
    EXPECT_EQ(r.status, 2) << shard;
    EXPECT_EQ(r.err,
              "gridlock: error: --facts-out takes no paths: a facts file holds the units it "
              "scanned, not the rest of the tree a run over some paths decides on; shard the "
              "whole tree, or scan the paths without --facts-out\n");
    EXPECT_FALSE(fs::exists(dir + "/f.facts"));
  }
}

struct PartialGate : ::testing::Test {
  // The case's package, its full baseline (helper.py's fallback, user.py's laundered call: 2
  // reads in 2 keys), committed.
  void SetUp() override {
    dir = copyOfTheCase("partial-gate");
    ASSERT_EQ(gate("--update -q").status, 0);
    committed = readFile(dir + "/b.json");
    ASSERT_NE(committed.find("\"total\": 2,"), std::string::npos) << committed;
    ASSERT_EQ(git("init -q && " + kGit + " add -A && " + kGit + " commit -q -m base").status, 0);
  }
  void TearDown() override { fs::remove_all(dir); }
  CommandResult gate(const std::string& extra, const std::string& pack = "p.json") {
    return in(dir, kBin + " gate --no-cache --rules " + pack + " --baseline b.json " + extra);
  }
  CommandResult git(const std::string& args) { return in(dir, kGit + " " + args); }
  std::string dir, committed;
};

const std::string kHowToAllow =
    "gate: remove each read above (its fix says how), or allow a deliberate one with "
    "`# gridlock: allow(reason)` (docs/suppressions.md)\n";

// A new file calling gather(x): its call launders helper.py's fallback, a new read that fails
// the gate over the diff and over the file given alike (helper.py and user.py's keys are not
// this run's: kept as they are).
TEST_F(PartialGate, ANewCallOfTheHelperFails) {
  writeFile(dir + "/pkg/other.py",
            "from pkg.helper import gather\n\n\ndef more(x):\n    return gather(x)\n");
  const std::string failure =
      "pkg/other.py:5:12: error: new global read: laundered global tp group: this call of "
      "pkg.helper.gather leaves the group out, so it reads pkg.ps.get_tp_group in "
      "pkg.other.more; fix: thread a group parameter [gridlock-gate]\n"
      "new:  pkg/other.py | pkg.other.more | pkg.helper.gather: 1 read(s) not in the baseline\n"
      "gate: 2 key(s) of files this run did not scan left as they are\n"
      "gate: FAILED: global reads rose (2 in the baseline, 3 now)\n" +
      kHowToAllow;
  CommandResult diff = gate("--changed-since HEAD");
  EXPECT_EQ(diff.status, 1) << diff.err;
  EXPECT_EQ(diff.out,
            "gate: 1 file(s) changed since HEAD; 1 translation unit(s) to check\n" + failure);
  CommandResult file = gate("pkg/other.py");
  EXPECT_EQ(file.status, 1) << file.err;
  EXPECT_EQ(file.out, failure);
  CommandResult update = gate("--changed-since HEAD --update");
  EXPECT_EQ(update.status, 1) << update.err;
  EXPECT_EQ(readFile(dir + "/b.json"), committed);
}

// A helper outside the pack's scope (as Megatron-LM's parallel_state helpers are) that gains
// a fallback: its own read counts nowhere, but user.py's unchanged gather(x) now launders it.
// A run over the helper's change judges that call again, and fails; when the fallback goes
// again, the call's key is another file's: kept, never shrunk by that run.
TEST_F(PartialGate, AHelperThatGainsAFallbackJudgesItsUnchangedCallersAgain) {
  writeFile(dir + "/q.json", R"({"name": "q",
 "scope": {"include": ["pkg/**"], "exclude": ["pkg/ps.py", "pkg/helper.py"]},
 "accessors": [
   {"python": "pkg.ps.get_tp_group", "kind": "accessor", "group": "tp", "yields": "group"}]}
)");
  const std::string withFallback = readFile(dir + "/pkg/helper.py");
  const std::string without =
      "from pkg import ps\n\n\ndef gather(x, tp_group=None):\n    return x, tp_group\n";
  writeFile(dir + "/pkg/direct.py",
            "from pkg import ps\n\n\ndef tp():\n    return ps.get_tp_group()\n");
  writeFile(dir + "/pkg/helper.py", without);
  fs::remove(dir + "/b.json");
  ASSERT_EQ(gate("--update -q", "q.json").status, 0);
  const std::string base = readFile(dir + "/b.json");
  ASSERT_NE(base.find("\"total\": 1,"), std::string::npos) << base;  // direct.py's read
  ASSERT_EQ(git("add -A && " + kGit + " commit -q -m without").status, 0);

  writeFile(dir + "/pkg/helper.py", withFallback);
  const std::string failure =
      "pkg/user.py:5:12: error: new global read: laundered global tp group: this call of "
      "pkg.helper.gather leaves the group out, so it reads pkg.ps.get_tp_group in "
      "pkg.user.use; fix: thread a group parameter [gridlock-gate]\n"
      "new:  pkg/user.py | pkg.user.use | pkg.helper.gather: 1 read(s) not in the baseline\n"
      "gate: 1 key(s) of files this run did not scan left as they are\n"
      "gate: FAILED: global reads rose (1 in the baseline, 2 now)\n" +
      kHowToAllow;
  CommandResult diff = gate("--changed-since HEAD", "q.json");
  EXPECT_EQ(diff.status, 1) << diff.err;
  EXPECT_EQ(diff.out,
            "gate: 1 file(s) changed since HEAD; 1 translation unit(s) to check\n" + failure);
  CommandResult file = gate("pkg/helper.py", "q.json");
  EXPECT_EQ(file.status, 1) << file.err;
  EXPECT_EQ(file.out, failure);
  EXPECT_EQ(readFile(dir + "/b.json"), base);

  // The fallback committed and counted by a full run; then removed again.
  fs::remove(dir + "/b.json");
  ASSERT_EQ(gate("--update -q", "q.json").status, 0);
  const std::string counted = readFile(dir + "/b.json");
  ASSERT_NE(counted.find("\"total\": 2,"), std::string::npos) << counted;
  ASSERT_EQ(git("add -A && " + kGit + " commit -q -m with").status, 0);
  writeFile(dir + "/pkg/helper.py", without);
  CommandResult fell = gate("--changed-since HEAD --update", "q.json");
  EXPECT_EQ(fell.status, 0) << fell.err;
  EXPECT_EQ(fell.out,
            "gate: 1 file(s) changed since HEAD; 1 translation unit(s) to check\n"
            "gate: 2 key(s) of files this run did not scan left as they are\n"
            "gate: passed: 0 global reads in the 1 file(s) scanned, as in the baseline\n");
  EXPECT_EQ(readFile(dir + "/b.json"), counted);
}

}  // namespace
}  // namespace gridlock::test
