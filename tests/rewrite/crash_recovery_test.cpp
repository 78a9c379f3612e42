// kill -9 at any step of `rewrite --apply` (or of `rewrite --recover`) leaves a tree that
// `rewrite --recover` puts back byte for byte: all old (all new once the journal was removed),
// no temporary, no journal. The steps come from the code: a traced run lists every crash point
// it reaches (GRIDLOCK_TRACE_POINTS), each must be one of apply/journal.h's step lists and
// every listed step must be reached; then each point is crashed at (GRIDLOCK_CRASH_AT, which
// `_exit(137)`s there) in a fresh copy.
#include "rewrite/rewrite_case.h"

#include "apply/journal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

// The "name:n" lines of a trace.
std::vector<std::string> traceOf(const std::string& path) {
  std::vector<std::string> out;
  std::istringstream in(readFile(path));
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string stepOf(const std::string& point) { return point.substr(0, point.rfind(':')); }

template <size_t N>
std::set<std::string> namesOf(const std::array<std::string_view, N>& steps) {
  return {steps.begin(), steps.end()};
}

// Every step of `steps` reached, and nothing else; per-file steps once per file.
template <size_t N>
void expectEveryStep(const std::vector<std::string>& trace,
                     const std::array<std::string_view, N>& steps) {
  ASSERT_FALSE(trace.empty());
  std::set<std::string> reached;
  for (const auto& p : trace) reached.insert(stepOf(p));
  EXPECT_EQ(reached, namesOf(steps));
}

std::string recoverCommand(const std::string& root, const std::string& extra = "") {
  return kBin + " rewrite --recover --root " + root + " " + extra;
}

const std::vector<std::string> kMpiFiles = {"halo.cpp", "halo.h", "main.cpp"};

TEST(CrashRecovery, KillAtEveryApplyStepThenRecoverLeavesAllOldOrAllNew) {
  std::string trace = makeTempDir("trace") + "/points";
  std::vector<std::string> points;
  {
    Case c("mpi");
    CommandResult r = c.run("rewrite", "--apply -q", "GRIDLOCK_TRACE_POINTS=" + trace);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(c.compareWithExpected(), "");
    points = traceOf(trace);
  }
  expectEveryStep(points, apply::kApplySteps);
  // Three files: backup, temp and renamed once each per file.
  EXPECT_EQ(points.size(), 5u + 3 * 3);
  std::string committed(apply::kApplySteps[size_t(apply::ApplyStep::Committed)]);
  bool journalGone = false;
  for (const auto& point : points) {
    SCOPED_TRACE(point);
    journalGone = journalGone || stepOf(point) == committed;
    Case c("mpi");
    CommandResult r = c.run("rewrite", "--apply -q", "GRIDLOCK_CRASH_AT=" + point);
    ASSERT_EQ(r.status, 137) << r.err;
    // Until recovered, every command that scans the tree refuses it.
    CommandResult scan = c.run("scan");
    EXPECT_EQ(scan.status, 2);
    EXPECT_NE(scan.err.find("run `gridlock rewrite --recover --root " + c.src + "`"),
              std::string::npos)
        << scan.err;
    CommandResult rec = runCommand(recoverCommand(c.src));
    ASSERT_EQ(rec.status, 0) << rec.err;
    EXPECT_EQ(journalGone ? c.compareWithExpected() : c.compareWithInput(), "");
    EXPECT_EQ(filesUnder(c.src, true), kMpiFiles);  // no temporary, no journal
    // And the tree works again: all old rewrites to the expected output (once: 5 s a run).
    if (point == points.front()) {
      CommandResult again = c.run("rewrite", "--apply -q");
      EXPECT_EQ(again.status, 0) << again.err;
      EXPECT_EQ(c.compareWithExpected(), "");
    }
  }
  EXPECT_TRUE(journalGone);
}

// A tree an apply left after replacing two of its three files, copied to `dir`.
void crashedCopy(const Case& c, const std::string& dir) {
  fs::copy(c.src, dir, fs::copy_options::recursive);
}

TEST(CrashRecovery, KillAtEveryRecoverStepThenRecoverAgainLeavesAllOld) {
  Case c("mpi");
  CommandResult r = c.run("rewrite", "--apply -q", "GRIDLOCK_CRASH_AT=apply-renamed:2");
  ASSERT_EQ(r.status, 137) << r.err;
  std::string work = makeTempDir("recover");
  std::string trace = work + "/points";
  crashedCopy(c, work + "/traced");
  CommandResult traced =
      runCommand("GRIDLOCK_TRACE_POINTS=" + trace + " " + recoverCommand(work + "/traced"));
  ASSERT_EQ(traced.status, 0) << traced.err;
  EXPECT_NE(traced.err.find("recovered: 2 file(s) restored, 1 already as they were, 0 left as "
                            "they are; the journal is removed"),
            std::string::npos)
      << traced.err;
  std::vector<std::string> points = traceOf(trace);
  expectEveryStep(points, apply::kRecoverSteps);
  EXPECT_EQ(points.size(), 4u + 2);  // two files restored
  int n = 0;
  for (const auto& point : points) {
    SCOPED_TRACE(point);
    std::string tree = work + "/" + std::to_string(n++);
    crashedCopy(c, tree);
    CommandResult crashed = runCommand("GRIDLOCK_CRASH_AT=" + point + " " + recoverCommand(tree));
    ASSERT_EQ(crashed.status, 137) << crashed.err;
    CommandResult again = runCommand(recoverCommand(tree));
    ASSERT_EQ(again.status, 0) << again.err;
    for (const auto& f : kMpiFiles)
      EXPECT_EQ(readFile(tree + "/" + f), readFile(kFixtures + "/mpi/input/" + f)) << f;
    EXPECT_EQ(filesUnder(tree, true), kMpiFiles);
  }
  fs::remove_all(work);
}

TEST(CrashRecovery, EveryCommandThatScansRefusesATreeHoldingAJournal) {
  Case c("mpi");
  ASSERT_EQ(c.run("rewrite", "--apply -q", "GRIDLOCK_CRASH_AT=apply-renamed:1").status, 137);
  const std::string message =
      "gridlock: error: " + c.src +
      "/.gridlock-journal: a `gridlock rewrite --apply` was "
      "interrupted here and the tree may hold old and new files mixed; run `gridlock rewrite "
      "--recover --root " +
      c.src + "` to put every file back as it was\n";
  fs::create_directories(c.src + "/sub");
  std::vector<std::string> commands = {
      " scan" + c.args(),
      " scan -p " + c.build + " --rules " + c.rules() + " --root " + c.src + "/sub",
      " gate" + c.args() + " --baseline " + c.dir + "/baseline.json --update",
      " callers -p " + c.build + " --root " + c.src + " --function exchange --param comm",
      " rewrite" + c.args() + " --apply",
      " rewrite" + c.args() + " --diff",
      " rewrite" + c.args() + " --export-fixes " + c.dir + "/fixes.yaml",
      // --recover below the interrupted tree: it points at the tree, not "nothing to recover".
      " rewrite --recover --root " + c.src + "/sub",
      // A root above the interrupted tree: the journal lies below it, where the files are.
      " scan -p " + c.build + " --rules " + c.rules() + " --root " + c.dir,
      " gate -p " + c.build + " --rules " + c.rules() + " --root " + c.dir + " --baseline " +
          c.dir + "/baseline.json --update",
      " callers -p " + c.build + " --root " + c.dir + " --function exchange --param comm",
      // pair builds and tests the tree as it is.
      " pair --baseline " + c.build + " --change " + c.src + " --test true",
  };
  for (const auto& cmd : commands) {
    SCOPED_TRACE(cmd);
    CommandResult r = runCommand(kBin + cmd);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, message);
    EXPECT_EQ(r.out, "");
  }
  EXPECT_FALSE(fs::exists(c.dir + "/baseline.json"));
  EXPECT_FALSE(fs::exists(c.dir + "/fixes.yaml"));
  fs::remove(c.src + "/sub");
  ASSERT_EQ(runCommand(recoverCommand(c.src)).status, 0);
  EXPECT_EQ(c.compareWithInput(), "");
  EXPECT_EQ(c.run("scan").status, 0);
}

// Killed before the journal was durable, or after it was removed: no file is mixed, and
// --recover only removes the directory, saying why.
TEST(CrashRecovery, RecoverOfADirectoryWithoutAJournalSaysNoFileIsMixed) {
  for (const std::string point : {"apply-locked:1", "apply-cleaned:1"}) {
    SCOPED_TRACE(point);
    Case c("mpi");
    ASSERT_EQ(c.run("rewrite", "--apply -q", "GRIDLOCK_CRASH_AT=" + point).status, 137);
    CommandResult r = runCommand(recoverCommand(c.src));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "gridlock: rewrite: " + c.src +
                         "/.gridlock-journal: the apply was interrupted before its journal was "
                         "written or after it was removed: every file holds its old contents or "
                         "its new ones, none mixed; the directory is removed\n");
    EXPECT_EQ(point == "apply-locked:1" ? c.compareWithInput() : c.compareWithExpected(), "");
    EXPECT_EQ(filesUnder(c.src, true), kMpiFiles);
  }
}

TEST(CrashRecovery, RecoverRefusesAFileChangedSinceAndForceLeavesIt) {
  Case c("mpi");
  ASSERT_EQ(c.run("rewrite", "--apply -q", "GRIDLOCK_CRASH_AT=apply-renamed:2").status, 137);
  // halo.cpp holds its new contents; the user edits it before recovering.
  const std::string edit = "// edited after the crash\n";
  std::string edited = readFile(c.src + "/halo.cpp") + edit;
  writeFile(c.src + "/halo.cpp", edited);
  std::vector<std::string> before = filesUnder(c.src, true);

  CommandResult r = runCommand(recoverCommand(c.src));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "gridlock: error: halo.cpp: changed since the interrupted rewrite (neither its "
            "old nor its new contents); its old contents are in " +
                c.src +
                "/.gridlock-journal/old/0\n"
                "gridlock: error: nothing was changed; rerun with --force to put back every "
                "other file and leave the changed ones as they are\n");
  EXPECT_EQ(filesUnder(c.src, true), before);
  EXPECT_EQ(readFile(c.src + "/halo.cpp"), edited);
  EXPECT_EQ(readFile(c.src + "/halo.h"), expectedFile("mpi", "halo.h"));

  CommandResult forced = runCommand(recoverCommand(c.src, "--force"));
  EXPECT_EQ(forced.status, 0) << forced.err;
  EXPECT_EQ(readFile(c.src + "/halo.cpp"), edited);
  EXPECT_EQ(readFile(c.src + "/halo.cpp.gridlock-old"),
            readFile(kFixtures + "/mpi/input/halo.cpp"));
  EXPECT_EQ(readFile(c.src + "/halo.h"), readFile(kFixtures + "/mpi/input/halo.h"));
  EXPECT_EQ(readFile(c.src + "/main.cpp"), readFile(kFixtures + "/mpi/input/main.cpp"));
  EXPECT_EQ(filesUnder(c.src, true),
            (std::vector<std::string>{"halo.cpp", "halo.cpp.gridlock-old", "halo.h", "main.cpp"}));
}

TEST(CrashRecovery, SecondWriterIsRefusedWhileOneIsWriting) {
  Case c("mpi");
  const std::string busy = "gridlock: error: " + c.src +
                           "/.gridlock-journal: another gridlock "
                           "process is writing this tree; wait for it to finish\n";
  CommandResult second, recovering, scanning;
  Spawned first = runStopping(
      {kBin, "rewrite", "-p", c.build, "--rules", c.rules(), "--root", c.src, "--apply", "-q"},
      {"GRIDLOCK_STOP_AT=apply-journaled:1"}, [&] {
        second = c.run("rewrite", "--apply -q");
        recovering = runCommand(recoverCommand(c.src));
        scanning = c.run("scan");
      });
  EXPECT_EQ(second.status, 2);
  EXPECT_EQ(second.err, busy);
  EXPECT_EQ(recovering.status, 2);
  EXPECT_EQ(recovering.err, busy);
  EXPECT_EQ(scanning.status, 2);
  EXPECT_EQ(scanning.err, busy);
  EXPECT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(c.compareWithExpected(), "");
  EXPECT_EQ(filesUnder(c.src, true), kMpiFiles);
}

TEST(CrashRecovery, RecoverWithoutAJournalHasNothingToDo) {
  Case c("mpi");
  CommandResult r = runCommand(recoverCommand(c.src));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "gridlock: rewrite: " + c.src + " holds no journal; nothing to recover\n");
}

TEST(CrashRecovery, DamagedJournalIsRefusedNamingIt) {
  for (const std::string& text :
       {std::string(),
        "gridlock rewrite journal 1\npid 7\nfiles 2\n" + std::string(32, 'a') + " " +
            std::string(32, 'b') + " 644 0 0 a.cpp\nend\n",
        "gridlock rewrite journal 1\npid 7\nfiles 1\n" + std::string(32, 'a') + " " +
            std::string(32, 'b') + " 644 0 0 a.cpp\n"}) {
    EXPECT_THROW(apply::parseJournal(text, "j"), apply::WriteRefused) << text;
  }
  apply::Journal j;
  j.pid = 42;
  j.entries.push_back(
      {"dir/my file.cpp", std::string(32, 'a'), std::string(32, 'b'), {0640, 12, 34}});
  apply::Journal back = apply::parseJournal(apply::serializeJournal(j), "j");
  EXPECT_EQ(back.pid, 42);
  ASSERT_EQ(back.entries.size(), 1u);
  EXPECT_EQ(back.entries[0].file, "dir/my file.cpp");
  EXPECT_EQ(back.entries[0].meta.mode, 0640u);
  EXPECT_EQ(back.entries[0].meta.uid, 12u);
  EXPECT_EQ(back.entries[0].meta.gid, 34u);
}

}  // namespace
}  // namespace gridlock::test
