// A test command that dies by a signal or times out is an incident, even when every result file
// was written before: it fails the verdict unless the other tree ended the same way, and every
// report shows it on its own line (tree, run, signal or timeout, tests that had not reported).
#include "fake_suite.h"
#include "pair/command_end.h"
#include "pair/report.h"
#include "pair/runner.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>

namespace gridlock::pair {
namespace {

using namespace gridlock::pair::testing;
using nlohmann::json;

struct Outcome {
  int code;
  std::string out, err;
  json report() const { return json::parse(out); }
};

Outcome run(PairOptions o, const std::string& format = "json") {
  o.format = format;
  std::ostringstream out, err;
  int code = runPair(o, out, err);
  return {code, out.str(), err.str()};
}

// Two trees running `command`; `marker` (if any) is created in the trees named by `where`.
struct Trees {
  TempDir d;
  PairOptions o;
  Trees(const std::string& tests, const std::string& command) {
    makeTree(d / "base", tests);
    makeTree(d / "change", tests);
    o.baseline = d / "base";
    o.change = d / "change";
    o.test = command;
    o.reruns = 0;
  }
  Trees& mark(const std::string& tree, const std::string& marker) {
    writeFile(d / (tree + "/" + marker), "");
    return *this;
  }
};

json incident(const std::string& tree, int run, const std::string& kind, int signal,
              const std::string& signalName, const std::string& description, bool shared,
              json unreported = json::array()) {
  return {{"tree", tree},
          {"run", run},
          {"kind", kind},
          {"signal", signal},
          {"signal_name", signalName},
          {"description", description},
          {"shared", shared},
          {"unreported", unreported}};
}

// Writes every result, then dies by SIGSEGV where the tree has a `segv` file.
const char* kSegvAfterResults = "sh run_tests.sh && if [ -e segv ]; then kill -SEGV $$; fi";

TEST(Incidents, ChangeKilledBySignalAfterWritingAllResultsFails) {
  Trees t("A.a pass\nA.b pass\n", kSegvAfterResults);
  t.mark("change", "segv");
  Outcome r = run(t.o);
  EXPECT_EQ(r.code, 1) << r.out;
  json j = r.report();
  EXPECT_EQ(j["result"], "fail");
  EXPECT_EQ(j["summary"]["passed_both"], 2);
  EXPECT_EQ(j["summary"]["incidents"], 1);
  EXPECT_EQ(j["incidents"], json::array({incident("change", 0, "signal", 11, "SIGSEGV",
                                                  "killed by signal 11 (SIGSEGV)", false)}));
  EXPECT_EQ(j["notes"], json::array());
}

TEST(Incidents, ExitStatus128PlusNIsASignalInEveryReport) {
  // How a shell reports its command killed by SIGSEGV.
  Trees t("A.a pass\nA.b pass\n", "sh run_tests.sh; if [ -e segv ]; then exit 139; fi");
  t.mark("change", "segv");
  Outcome j = run(t.o);
  EXPECT_EQ(j.code, 1);
  EXPECT_EQ(j.report()["incidents"],
            json::array({incident("change", 0, "signal", 11, "SIGSEGV",
                                  "exited with status 139 (signal 11, SIGSEGV)", false)}));
  Outcome text = run(t.o, "text");
  EXPECT_EQ(text.code, 1);
  EXPECT_EQ(text.out.substr(0, text.out.find('\n')), "gridlock pair: FAIL: 1 incident (2 tests)");
  EXPECT_NE(text.out.find("\nIncidents:\n  change, first run: test command exited with status 139 "
                          "(signal 11, SIGSEGV); every test reported\n"),
            std::string::npos)
      << text.out;
  Outcome md = run(t.o, "markdown");
  EXPECT_EQ(md.code, 1);
  EXPECT_NE(md.out.find("## gridlock pair: FAIL\n\n1 incident of 2 tests.\n"), std::string::npos)
      << md.out;
  EXPECT_NE(md.out.find("\n**Incidents**\n\n- change, first run: test command exited with status "
                        "139 (signal 11, SIGSEGV); every test reported\n"),
            std::string::npos)
      << md.out;
}

TEST(Incidents, BaselineOnlyCrashFails) {
  Trees t("A.a pass\n", kSegvAfterResults);
  t.mark("base", "segv");
  Outcome r = run(t.o);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.report()["incidents"],
            json::array({incident("baseline", 0, "signal", 11, "SIGSEGV",
                                  "killed by signal 11 (SIGSEGV)", false)}));
}

TEST(Incidents, SameSignalInBothTreesIsSharedAndDoesNotFail) {
  Trees t("A.a pass\nA.b fail\n", kSegvAfterResults);
  t.mark("base", "segv").mark("change", "segv");
  Outcome r = run(t.o);
  EXPECT_EQ(r.code, 0) << r.out;
  json j = r.report();
  EXPECT_EQ(j["result"], "pass");
  EXPECT_EQ(j["summary"]["incidents"], 2);
  EXPECT_EQ(
      j["incidents"],
      json::array(
          {incident("baseline", 0, "signal", 11, "SIGSEGV", "killed by signal 11 (SIGSEGV)", true),
           incident("change", 0, "signal", 11, "SIGSEGV", "killed by signal 11 (SIGSEGV)", true)}));
  Outcome text = run(t.o, "text");
  EXPECT_EQ(text.out.substr(0, text.out.find('\n')),
            "gridlock pair: PASS: 2 shared incidents, 1 still_failing (2 tests)");
  EXPECT_NE(text.out.find("\nIncidents:\n"
                          "  baseline, first run: test command killed by signal 11 (SIGSEGV); "
                          "every test reported; the other tree ended the same way\n"
                          "  change, first run: test command killed by signal 11 (SIGSEGV); "
                          "every test reported; the other tree ended the same way\n"),
            std::string::npos)
      << text.out;
}

TEST(Incidents, DifferentSignalsAreNotShared) {
  Trees t("A.a pass\n",
          "sh run_tests.sh && if [ -e segv ]; then kill -SEGV $$; else "
          "kill -ABRT $$; fi");
  t.mark("base", "segv");
  Outcome r = run(t.o);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(
      r.report()["incidents"],
      json::array(
          {incident("baseline", 0, "signal", 11, "SIGSEGV", "killed by signal 11 (SIGSEGV)", false),
           incident("change", 0, "signal", 6, "SIGABRT", "killed by signal 6 (SIGABRT)", false)}));
}

// Writes every result, then hangs where the tree has a `hang` file.
const char* kHangAfterResults = "sh run_tests.sh; if [ -e hang ]; then sleep 60; fi";

TEST(Incidents, TimeoutAfterWritingAllResultsFails) {
  Trees t("A.a pass\n", kHangAfterResults);
  t.mark("change", "hang");
  t.o.timeout = 1;
  Outcome r = run(t.o);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.report()["incidents"],
            json::array({incident("change", 0, "timeout", 0, "", "timed out after 1s", false)}));
}

TEST(Incidents, TimeoutsInBothTreesAreNeverShared) {
  // A run cut short may not have reached tests that neither tree reported.
  Trees t("A.a pass\n", kHangAfterResults);
  t.mark("base", "hang").mark("change", "hang");
  t.o.timeout = 1;
  Outcome r = run(t.o);
  EXPECT_EQ(r.code, 1);
  json j = r.report();
  EXPECT_EQ(j["summary"]["incidents"], 2);
  EXPECT_EQ(j["incidents"][0]["shared"], false);
  EXPECT_EQ(j["incidents"][1]["shared"], false);
}

TEST(Incidents, TestsFailedExitStatusIsNoIncident) {
  Trees t("A.a pass\nA.b fail\n", "sh run_tests.sh; exit 1");
  Outcome r = run(t.o);
  EXPECT_EQ(r.code, 0) << r.out;
  json j = r.report();
  EXPECT_EQ(j["summary"]["incidents"], 0);
  EXPECT_EQ(j["incidents"], json::array());
  EXPECT_EQ(j["notes"], json::array({"baseline: test command exited with status 1",
                                     "change: test command exited with status 1"}));
}

TEST(Incidents, CrashDuringARerunFails) {
  // The flaky test passes on its rerun, but the rerun's command died afterwards.
  Trees t("A.ok pass\nA.w pass\n",
          "sh run_tests.sh && if [ -e segv ] && [ $GRIDLOCK_RUN = 1 ]; then kill -SEGV $$; fi");
  writeFile(t.d / "change/tests.txt", "A.ok pass\nA.w flaky\n");
  t.mark("change", "segv");
  t.o.reruns = 2;
  Outcome r = run(t.o);
  EXPECT_EQ(r.code, 1);
  json j = r.report();
  EXPECT_EQ(j["summary"]["flaky"], 1);
  EXPECT_EQ(j["incidents"], json::array({incident("change", 1, "signal", 11, "SIGSEGV",
                                                  "killed by signal 11 (SIGSEGV)", false)}));
  fs::remove(t.d / "change/flaky.count");  // so the second run is flaky again
  Outcome text = run(t.o, "text");
  EXPECT_NE(text.out.find("\n  change, rerun 1: test command killed by signal 11 (SIGSEGV); "
                          "every test reported\n"),
            std::string::npos)
      << text.out;
}

TEST(Incidents, TestsThatHadNotReportedAreListed) {
  // run_tests.sh leaves a truncated report and exits 139 at the `crash` line.
  Trees t("A.a pass\nA.b pass\n", kSingleRank);
  writeFile(t.d / "change/tests.txt", "A.a pass\nA.b crash\n");
  t.o.reruns = 1;
  Outcome r = run(t.o);
  EXPECT_EQ(r.code, 1);
  json both = json::array({"A.a", "A.b"});
  EXPECT_EQ(r.report()["incidents"],
            json::array({incident("change", 0, "signal", 11, "SIGSEGV",
                                  "exited with status 139 (signal 11, SIGSEGV)", false, both),
                         incident("change", 1, "signal", 11, "SIGSEGV",
                                  "exited with status 139 (signal 11, SIGSEGV)", false, both)}));
  Outcome text = run(t.o, "text");
  EXPECT_NE(text.out.find("  change, first run: test command exited with status 139 (signal 11, "
                          "SIGSEGV); 2 tests had not reported: A.a, A.b\n"),
            std::string::npos)
      << text.out;
}

TEST(Incidents, KeptResultsRememberHowRunsEnded) {
  Trees t("A.a pass\n", kSegvAfterResults);
  t.mark("change", "segv");
  t.o.resultsDir = t.d / "results";
  Outcome live = run(t.o);
  EXPECT_EQ(live.code, 1);
  EXPECT_EQ(readFile(t.d / "results/change/run0.end"), "signal 11\n");
  EXPECT_EQ(readFile(t.d / "results/baseline/run0.end"), "exit 0\n");
  PairOptions again;
  again.baselineResults = t.d / "results/baseline";
  again.changeResults = t.d / "results/change";
  Outcome later = run(again);
  EXPECT_EQ(later.code, 1);
  EXPECT_EQ(later.report()["incidents"], live.report()["incidents"]);
}

TEST(CommandEnds, WhatCountsAsASignal) {
  auto exited = [](int status) { return CommandEnd{true, status, 0, false, 0}; };
  CommandEnd killed{true, 0, 9, false, 0}, timedOut{true, 0, 0, true, 60};
  EXPECT_EQ(endSignal(exited(134)), 6);  // mpirun after a rank's abort
  EXPECT_EQ(endSignal(exited(1)), 0);
  EXPECT_EQ(endSignal(exited(128)), 0);
  EXPECT_EQ(endSignal(exited(255)), 0);  // beyond any signal number: the command's own status
  EXPECT_EQ(endSignal(killed), 9);
  EXPECT_FALSE(isIncident(exited(1)));
  EXPECT_FALSE(isIncident(CommandEnd{false, 139, 0, false, 0}));  // collected by hand: unknown
  EXPECT_TRUE(isIncident(exited(137)));
  EXPECT_TRUE(isIncident(timedOut));
  EXPECT_TRUE(sameWay(exited(139), CommandEnd{true, 0, 11, false, 0}));
  EXPECT_FALSE(sameWay(exited(139), exited(134)));
  EXPECT_FALSE(sameWay(timedOut, timedOut));
  EXPECT_EQ(describe(killed), "killed by signal 9 (SIGKILL)");
  EXPECT_EQ(describe(exited(150)), "exited with status 150 (signal 22)");
  EXPECT_EQ(describe(exited(200)), "exited with status 200");
  EXPECT_EQ(describe(timedOut), "timed out after 60s");
}

TEST(CommandEnds, RecordRoundTripAndBadRecord) {
  for (CommandEnd e : {CommandEnd{true, 3, 0, false, 0}, CommandEnd{true, 0, 11, false, 0},
                       CommandEnd{true, 0, 0, true, 3600}}) {
    CommandEnd back = parseEnd(formatEnd(e), "r");
    EXPECT_EQ(formatEnd(back), formatEnd(e));
    EXPECT_TRUE(back.known);
  }
  try {
    parseEnd("crashed\n", "/r/run0.end");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "/r/run0.end: not a command end record (\"exit N\", \"signal N\" or "
                 "\"timeout S\")");
  }
}

TEST(CommandEnds, LongListsOfUnreportedTestsAreCut) {
  Incident i{"change", 2, CommandEnd{true, 0, 0, true, 5}, false, {}};
  for (int k = 0; k < 12; ++k) i.unreported.push_back("A.t" + std::to_string(k));
  EXPECT_EQ(wording::incidentLine(i, 3),
            "change, rerun 2: test command timed out after 5s; 12 tests had not reported: "
            "A.t0, A.t1, A.t2 and 9 more");
  i.unreported = {"A.only"};
  EXPECT_EQ(wording::incidentLine(i),
            "change, rerun 2: test command timed out after 5s; 1 test had not reported: A.only");
}

TEST(Incidents, BaselineThatDiedBeforeWritingSaysHow) {
  Trees t("A.a pass\n", "if [ -e segv ]; then kill -SEGV $$; fi; sh run_tests.sh");
  t.mark("base", "segv");
  Outcome r = run(t.o);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("baseline: no result files (*.json GoogleTest, *.xml JUnit); its test "
                       "command was killed by signal 11 (SIGSEGV)\n"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace gridlock::pair
