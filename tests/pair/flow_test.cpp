// `--baseline DIR --change DIR --test CMD` for real, on tiny trees whose test suite is a shell
// script writing GoogleTest JSON: categories, ranks, crashes, timeouts, builds, git revisions.
#include "fake_suite.h"
#include "pair/report.h"
#include "pair/runner.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>

namespace gridlock::pair {
namespace {

using namespace gridlock::pair::testing;

struct Reported {
  int code;
  nlohmann::json report;
  std::string err;
};

Reported runJson(PairOptions o) {
  o.format = "json";
  std::ostringstream out, err;
  int code = runPair(o, out, err);
  nlohmann::json j = out.str().empty() ? nlohmann::json() : nlohmann::json::parse(out.str());
  return {code, j, err.str()};
}

std::map<std::string, std::string> categoriesOf(const nlohmann::json& report) {
  std::map<std::string, std::string> m;
  for (auto& t : report["tests"]) m[t["id"]] = t["category"];
  return m;
}

TEST(Flow, TwoDirectoriesEndToEnd) {
  TempDir d;
  makeTree(d / "base", "A.same pass\nA.fixed fail\nA.still fail\nA.gone pass\nA.skip skip\n");
  makeTree(d / "change", "A.same pass\nA.fixed pass\nA.still fail\nA.new pass\nA.skip skip\n");
  PairOptions o;
  o.baseline = d / "base";
  o.change = d / "change";
  o.test = kSingleRank;
  Reported r = runJson(o);
  EXPECT_EQ(r.code, 0) << r.err;
  std::map<std::string, std::string> expected = {
      {"A.same", "passed_both"}, {"A.fixed", "fixed"}, {"A.still", "still_failing"},
      {"A.gone", "removed"},     {"A.new", "added"},   {"A.skip", "passed_both"}};
  EXPECT_EQ(categoriesOf(r.report), expected);
  EXPECT_EQ(r.report["summary"]["skipped_both"], 1);
  // The failure message comes verbatim; its signature drops the tree's path and the pid.
  for (auto& t : r.report["tests"])
    if (t["id"] == "A.still") {
      EXPECT_EQ(t["message"],
                (d / "change") + "/model_test.cpp:" +
                    std::string(t["message"]).substr(std::string(t["message"]).find(':') + 1));
      EXPECT_EQ(t["signature"], "A.still failed on rank <n>");
    }
  EXPECT_EQ(r.report["notes"], nlohmann::json::array());
}

TEST(Flow, RankFilesAndAFailureOnOneRank) {
  TempDir d;
  makeTree(d / "base", "A.same pass\nA.r pass\n");
  makeTree(d / "change", "A.same pass\nA.r rankfail\n");
  PairOptions o;
  o.baseline = d / "base";
  o.change = d / "change";
  o.test = kTwoRanks;
  o.reruns = 1;
  Reported r = runJson(o);
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(fs::exists(d / "change/flaky.count") == false);
  EXPECT_EQ(r.report["ranks"], 2);
  for (auto& t : r.report["tests"])
    if (t["id"] == "A.r") {
      EXPECT_EQ(t["category"], "new_failure");
      EXPECT_EQ(t["failed_ranks"], nlohmann::json::array({1}));
      EXPECT_EQ(t["reruns"], 1);
    }
}

TEST(Flow, CrashedChangeMakesTestsInvalidNotZeroFailures) {
  TempDir d;
  makeTree(d / "base", "A.a pass\nA.b pass\n");
  makeTree(d / "change", "A.a pass\nA.b crash\n");  // dies half-way through its report
  PairOptions o;
  o.baseline = d / "base";
  o.change = d / "change";
  o.test = kSingleRank;
  o.reruns = 1;
  Reported r = runJson(o);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.report["summary"]["invalid"], 2);
  EXPECT_EQ(r.report["summary"]["passed_both"], 0);
  // The exits are incidents (incidents_test.cpp), not notes.
  EXPECT_EQ(r.report["notes"], nlohmann::json::array());
  EXPECT_EQ(r.report["summary"]["incidents"], 2);
  EXPECT_EQ(r.report["incidents"][1]["description"], "exited with status 139 (signal 11, SIGSEGV)");
  EXPECT_EQ(r.report["signatures"][0]["message"],
            "no result: suite.json: truncated JSON (<n> bytes) (crashed while writing?)");
  EXPECT_EQ(r.report["signatures"][0]["count"], 2);
}

TEST(Flow, TimedOutChangeIsInvalid) {
  TempDir d;
  makeTree(d / "base", "A.a pass\n");
  makeTree(d / "change", "A.a pass\n");
  writeFile(d / "change/hang", "");
  PairOptions o;
  o.baseline = d / "base";
  o.change = d / "change";
  o.test = "if [ -e hang ]; then sleep 30; fi; sh run_tests.sh";
  o.timeout = 1;
  o.reruns = 0;
  Reported r = runJson(o);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.report["tests"][0]["category"], "invalid");
  EXPECT_EQ(r.report["tests"][0]["message"],
            "no result: suite.json wrote no result file (crashed or timed out?)");
  EXPECT_EQ(r.report["notes"], nlohmann::json::array());
  EXPECT_EQ(r.report["incidents"][0]["description"], "timed out after 1s");
}

TEST(Flow, BuildRunsInEachTreeAndItsFailureIsBadInput) {
  TempDir d;
  makeTree(d / "base", "A.a pass\n");
  makeTree(d / "change", "A.a pass\n");
  PairOptions o;
  o.baseline = d / "base";
  o.change = d / "change";
  o.build = "echo $GRIDLOCK_TREE > built.txt";
  o.test = "test -e built.txt && sh run_tests.sh";
  Reported ok = runJson(o);
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(readFile(d / "change/built.txt"), "change\n");
  o.build = "test ! -e broken";
  writeFile(d / "change/broken", "");
  Reported bad = runJson(o);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("gridlock pair: error: change: build command exited with status 1"),
            std::string::npos)
      << bad.err;
}

TEST(Flow, BuildThatTimesOutIsBadInputNamingTheLimit) {
  TempDir d;
  makeTree(d / "base", "A.a pass\n");
  makeTree(d / "change", "A.a pass\n");
  writeFile(d / "change/hang", "");
  PairOptions o;
  o.baseline = d / "base";
  o.change = d / "change";
  o.build = "if [ -e hang ]; then sleep 60; fi";
  o.buildTimeout = 1;
  o.test = kSingleRank;
  Reported r = runJson(o);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("gridlock pair: error: change: build command timed out after 1s\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(PairOptions{}.timeout, 3600);  // test commands have a limit by default, builds not
  EXPECT_EQ(PairOptions{}.buildTimeout, 0);
}

TEST(Flow, MissingTreeAndSilentTestCommandAreBadInput) {
  TempDir d;
  makeTree(d / "base", "A.a pass\n");
  PairOptions o;
  o.baseline = d / "base";
  o.change = d / "nowhere";
  o.repo = d.path();  // not a git repository either
  o.test = kSingleRank;
  Reported r = runJson(o);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--change " + (d / "nowhere") + ": neither a directory nor a git revision"),
            std::string::npos)
      << r.err;
  o.change = d / "base";
  o.test = "true";  // writes no results
  r = runJson(o);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("baseline: no result files"), std::string::npos) << r.err;
}

TEST(Flow, GitRevisionsAreCheckedOutAsWorktreesAndRemoved) {
  TempDir d;
  std::string repo = d / "repo";
  makeTree(repo, "A.a pass\nA.b fail\n");
  std::string git = "cd '" + repo +
                    "' && git -c init.defaultBranch=main init -q && "
                    "git -c user.name=t -c user.email=t@t add -A && "
                    "git -c user.name=t -c user.email=t@t commit -qm base";
  ASSERT_EQ(std::system(git.c_str()), 0);
  writeFile(repo + "/tests.txt", "A.a fail\nA.b pass\n");
  ASSERT_EQ(
      std::system(
          ("cd '" + repo + "' && git -c user.name=t -c user.email=t@t commit -qam change").c_str()),
      0);
  PairOptions o;
  o.baseline = "HEAD~1";
  o.change = "HEAD";
  o.repo = repo;
  o.test = kSingleRank;
  o.reruns = 0;
  Reported r = runJson(o);
  EXPECT_EQ(r.code, 1) << r.err;
  std::map<std::string, std::string> expected = {{"A.a", "new_failure"}, {"A.b", "fixed"}};
  EXPECT_EQ(categoriesOf(r.report), expected);
  EXPECT_EQ(r.report["notes"].size(), 2u);
  // Only the main worktree is left.
  std::string list;
  {
    FILE* p = popen(
        ("git -C '" + repo + "' worktree list --porcelain | grep -c '^worktree '").c_str(), "r");
    char buf[64] = {};
    if (p && fgets(buf, sizeof buf, p)) list = buf;
    if (p) pclose(p);
  }
  EXPECT_EQ(list, "1\n");
}

TEST(Flow, ResultsDirKeepsRunsForALaterComparison) {
  TempDir d;
  makeTree(d / "base", "A.w pass\n");
  makeTree(d / "change", "A.w flaky\n");
  PairOptions o;
  o.baseline = d / "base";
  o.change = d / "change";
  o.test = kSingleRank;
  o.resultsDir = d / "results";
  Reported first = runJson(o);
  EXPECT_EQ(first.code, 0);
  EXPECT_TRUE(fs::exists(d / "results/change/run1/suite.json"));
  PairOptions again;
  again.baselineResults = d / "results/baseline";
  again.changeResults = d / "results/change";
  Reported second = runJson(again);
  EXPECT_EQ(second.report["summary"], first.report["summary"]);
  EXPECT_EQ(second.report["tests"][0]["category"], "flaky");
}

TEST(Flow, ResultsDirOfAnEarlierSessionIsReplacedNotMixedIn) {
  TempDir d;
  makeTree(d / "base", "A.w pass\n");
  makeTree(d / "change", "A.w fail\n");
  // An earlier session, with more reruns, left run2 where A.w passed, and how run0 ended.
  writeFile(d / "results/change/run2/suite.json", gtestJson({{"A.w", "pass", ""}}));
  writeFile(d / "results/change/run0.end", "signal 11\n");
  PairOptions o;
  o.baseline = d / "base";
  o.change = d / "change";
  o.test = kSingleRank;
  o.reruns = 1;
  o.resultsDir = d / "results";
  Reported live = runJson(o);
  EXPECT_EQ(live.code, 1);
  EXPECT_FALSE(fs::exists(d / "results/change/run2"));
  EXPECT_EQ(readFile(d / "results/change/run0.end"), "exit 0\n");
  PairOptions again;
  again.baselineResults = d / "results/baseline";
  again.changeResults = d / "results/change";
  Reported later = runJson(again);
  EXPECT_EQ(later.code, 1);
  EXPECT_EQ(later.report["tests"][0]["category"], "new_failure");
  EXPECT_EQ(later.report["tests"][0]["reruns"], 1);
}

// Options for the trees d/base and d/change, whose tests.txt are `base` and `change`, tested
// by the single-rank suite.
PairOptions twoTrees(const TempDir& d, const std::string& base, const std::string& change) {
  makeTree(d / "base", base);
  makeTree(d / "change", change);
  PairOptions o;
  o.baseline = d / "base";
  o.change = d / "change";
  o.test = kSingleRank;
  return o;
}

// --results-dir relative to where pair runs: the test command runs in its tree, so it gets the
// directory as an absolute path.
TEST(Flow, RelativeResultsDirIsWhereTheTestCommandWrites) {
  TempDir d;
  PairOptions o = twoTrees(d, "A.w pass\n", "A.w fail\n");
  o.reruns = 1;
  o.resultsDir = "results";
  fs::path started = fs::current_path();
  fs::current_path(d.path());
  Reported r = runJson(o);
  fs::current_path(started);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.report["tests"][0]["category"], "new_failure");
  for (const char* f : {"baseline/run0/suite.json", "change/run0/suite.json",
                        "change/run1/suite.json", "change/run1.filter"})
    EXPECT_TRUE(fs::exists(d / (std::string("results/") + f))) << f;
  EXPECT_FALSE(fs::exists(d / "base/results"));
  EXPECT_FALSE(fs::exists(d / "change/results"));
}

// Whether process `pid` is running (a zombie is not: it only waits to be reaped).
bool running(const std::string& pid) {
  std::string stat = readFile("/proc/" + pid + "/stat");
  size_t close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z' &&
         stat[close + 2] != 'X';
}

// A test command that leaves a process of its own running in the background (a server, a rank
// that never exits): pair ends it with the command's process group, and the notes name it.
TEST(Flow, BackgroundChildrenOfTheTestCommandAreEndedAndNamed) {
  TempDir d;
  PairOptions o = twoTrees(d, "A.w pass\n", "A.w pass\n");
  // The command exits once its child is sleep (no longer the shell it was forked as), so that
  // the note names it as sleep.
  o.test = std::string(kSingleRank) +
           " && { sleep 300 & echo $! > left.pid; "
           "until [ \"$(cat /proc/$!/comm)\" = sleep ]; do :; done; }";
  Reported r = runJson(o);
  EXPECT_EQ(r.code, 0) << r.err;
  std::vector<std::string> notes;
  for (auto [tree, label] : {std::pair{"base", "baseline"}, std::pair{"change", "change"}}) {
    std::string pid = readFile(d / (std::string(tree) + "/left.pid"));
    while (!pid.empty() && pid.back() == '\n') pid.pop_back();
    ASSERT_FALSE(pid.empty()) << tree;
    EXPECT_FALSE(running(pid)) << tree << ": sleep " << pid << " outlived pair";
    notes.push_back(std::string(label) + ": test command left 1 process(es) of its group " +
                    "running when it exited (" + pid +
                    " sleep); pair ended them (SIGTERM, then SIGKILL after 2 s)");
  }
  EXPECT_EQ(r.report["notes"], nlohmann::json(notes));
}

}  // namespace
}  // namespace gridlock::pair

namespace gridlock::pair {
namespace {

using namespace gridlock::pair::testing;

// tool/pair/gtest-rank-output.sh points each rank's GoogleTest report at its own directory.
TEST(RankOutputWrapper, SetsGTestOutputPerRank) {
  TempDir d;
  std::string wrapper = std::string(PAIR_SOURCE_DIR) + "/gtest-rank-output.sh";
  std::string cmd = "cd '" + d.path() +
                    "' && for r in 0 1; do GRIDLOCK_RESULTS_DIR=/res "
                    "OMPI_COMM_WORLD_RANK=$r sh '" +
                    wrapper + "' sh -c 'echo $GTEST_OUTPUT' >> out.txt; done";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(readFile(d / "out.txt"), "json:/res/rank0/\njson:/res/rank1/\n");
}

}  // namespace
}  // namespace gridlock::pair

namespace gridlock::pair {
namespace {

using namespace gridlock::pair::testing;

// The documented convention for real: mpirun starts each rank through gtest-rank-output.sh, a
// real GoogleTest binary writes rank<N>/<binary>.json, and pair merges the ranks.
TEST(MpiFlow, RealGTestBinaryUnderMpirun) {
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "no mpirun";
  TempDir d;
  fs::create_directories(d / "base");
  fs::create_directories(d / "change");
  writeFile(d / "change/break", "");
  writeFile(d / "change/crash", "");
  PairOptions o;
  o.baseline = d / "base";
  o.change = d / "change";
  o.test =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -n 2 --oversubscribe "
      "sh " +
      std::string(PAIR_SOURCE_DIR) + "/gtest-rank-output.sh " PAIR_FAKE_RANK_GTEST;
  o.reruns = 1;
  o.resultsDir = d / "results";
  o.format = "json";
  std::ostringstream out, err;
  EXPECT_EQ(runPair(o, out, err), 1) << err.str();
  EXPECT_TRUE(fs::exists(d / "results/baseline/run0/rank1/pair_fake_rank_gtest.json"));
  nlohmann::json j = nlohmann::json::parse(out.str());
  std::map<std::string, std::string> cats;
  for (auto& t : j["tests"]) cats[t["id"]] = t["category"];
  // CrashesOnRank1 aborts rank 1, so rank 1 writes no report and every test of the binary is
  // invalid there; nothing may read as passed.
  std::map<std::string, std::string> expected = {
      {"Mpi.Same", "invalid"}, {"Mpi.BreaksOnRank1", "invalid"}, {"Mpi.CrashesOnRank1", "invalid"}};
  EXPECT_EQ(cats, expected);
  EXPECT_EQ(j["ranks"], 2);

  // Without the crash the one-rank failure shows, merged over ranks.
  fs::remove(d / "change/crash");
  std::ostringstream out2, err2;
  EXPECT_EQ(runPair(o, out2, err2), 1) << err2.str();
  j = nlohmann::json::parse(out2.str());
  cats.clear();
  for (auto& t : j["tests"]) {
    cats[t["id"]] = t["category"];
    if (t["id"] == "Mpi.BreaksOnRank1") {
      EXPECT_EQ(t["failed_ranks"], nlohmann::json::array({1}));
      EXPECT_EQ(t["signature"], "Attention requires an explicit pg_collection");
    }
  }
  expected = {{"Mpi.Same", "passed_both"},
              {"Mpi.BreaksOnRank1", "new_failure"},
              {"Mpi.CrashesOnRank1", "passed_both"}};
  EXPECT_EQ(cats, expected);
}

}  // namespace
}  // namespace gridlock::pair
