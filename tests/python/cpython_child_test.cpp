// python3, which parses the Python files tree-sitter cannot read (tool/python/cpython_check.h),
// runs with pyright's guarantees (docs/guarantees.md): a process group of its own, stopped at
// --cpython-timeout and on SIGTERM or SIGINT to gridlock; a grandchild holding its stdout open
// does not hang the scan; an answer it did not give is an error naming CPython's parse, and is
// never cached. Each test puts a python3 of its own first on PATH.
#include "support/python_project.h"
#include "support/run_command.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <thread>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const std::string kBin = GRIDLOCK_BIN;

// writePythonProject's package, with a line tree-sitter-python 0.23.6 cannot read (a starred
// product in a return list: `(` at 5:16) that CPython parses, and a python3 in DIR/bin that
// runs `script` (sh).
std::string projectWithPython3(const std::string& tag, const std::string& script) {
  std::string dir = makeTempDir(tag);
  writePythonProject(dir);
  writeFile(dir + "/pkg/star.py",
            "from pkg import ps\n\n\ndef f(a, b, n):\n"
            "    return a, *(b,) * n, len(a)\n");
  writeFile(dir + "/bin/python3", "#!/bin/sh\n" + script);
  ::chmod((dir + "/bin/python3").c_str(), 0755);
  return dir;
}

// `gridlock scan -q` in `dir` with its python3 first on PATH (unless `realPython3`); `timeout`
// ends a scan that hangs, as one did before python3 ran in a group of its own.
CommandResult scan(const std::string& dir, const std::string& args, bool realPython3 = false) {
  return runCommand("cd " + dir + " && " + (realPython3 ? "" : "PATH=" + dir + "/bin:$PATH ") +
                    "timeout 30 " + kBin + " scan -q --rules py.json" + args);
}

// What scan prints on stderr when pkg/star.py stays a parse error because `why`.
std::string noAnswer(const std::string& why) {
  return "gridlock: error: pkg/star.py failed to parse; its reads may be incomplete\n"
         "  pkg/star.py:5:16: error: invalid syntax at '('\n"
         "  pkg/star.py:5:16: error: CPython's parse of this file, which tree-sitter-python "
         "cannot read, failed: " +
         why +
         "\n"
         "gridlock: 1 file(s) failed to parse; the inventory is incomplete (pass "
         "--allow-parse-errors to accept that)\n";
}

// Whether process `pid` still runs, waiting up to two seconds for it to end (a zombie waiting
// to be reaped does not run).
bool stillRuns(pid_t pid) {
  for (int i = 0; i < 100; ++i) {
    std::string stat = readFile("/proc/" + std::to_string(pid) + "/stat");
    size_t close = stat.rfind(')');
    if (close == std::string::npos || close + 2 >= stat.size() || stat[close + 2] == 'Z')
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

// What a scan whose python3 --cpython-timeout 1 stops prints on stderr; it ends within ten
// seconds, exit 2.
std::string stderrOfStoppedScan(const std::string& dir) {
  auto start = Clock::now();
  CommandResult r = scan(dir, " --no-cache --cpython-timeout 1");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(r.status, 2);
  return r.err;
}

pid_t pidIn(const std::string& path) { return std::atoi(readFile(path).c_str()); }

// A python3 that says its pid and its child's, and leaves the child holding its stdout.
const std::string kRecordsPids = "echo $$ > \"$0.pid\"\nsleep 60 &\necho $! > \"$0.child\"\n";

// A python3 that takes the source and then answers nothing for a minute is stopped with its
// group after --cpython-timeout (1 s here), and the file stays a parse error that says so.
TEST(CPythonChild, APython3PastItsTimeoutIsStoppedWithItsGroupAndTheFileIsAnError) {
  std::string dir = projectWithPython3("cpy-timeout", kRecordsPids + "exec sleep 60\n");
  EXPECT_EQ(stderrOfStoppedScan(dir),
            noAnswer("python3 gave no answer within 1 s of the last source and was stopped "
                     "(--cpython-timeout SECONDS sets the limit; the default is 60 s)"));
  pid_t python3 = pidIn(dir + "/bin/python3.pid"), child = pidIn(dir + "/bin/python3.child");
  ASSERT_GT(python3, 0);
  ASSERT_GT(child, 0);
  EXPECT_FALSE(stillRuns(python3));
  EXPECT_FALSE(stillRuns(child)) << "python3's child " << child << " still runs";
  fs::remove_all(dir);
}

// A python3 that never reads its input, handed a file bigger than the socket's buffer: it took
// no source for the timeout, and is stopped then (the scan does not wait on the write).
TEST(CPythonChild, APython3ThatTakesNoSourceIsStoppedAtItsTimeout) {
  std::string dir = projectWithPython3("cpy-no-read", "exec sleep 60\n");
  writeFile(dir + "/pkg/star.py",
            "from pkg import ps\n\n\ndef f(a, b, n):\n"
            "    return a, *(b,) * n, len(a)\n" +
                std::string(4'000'000, '#') + "\n");
  EXPECT_EQ(stderrOfStoppedScan(dir),
            noAnswer("python3 took no source for 1 s and was stopped (--cpython-timeout "
                     "SECONDS sets the limit; the default is 60 s)"));
  fs::remove_all(dir);
}

// python3 answers, but the child it started holds its stdout open for a minute: the answer is
// read when python3 exits, the child is stopped, and the scan ends at once, clean.
TEST(CPythonChild, AChildThatKeepsStdoutOpenDoesNotHangTheScan) {
  std::string python3 = runCommand("command -v python3").out;
  ASSERT_FALSE(python3.empty());
  python3.pop_back();  // the newline
  std::string dir = projectWithPython3("cpy-child", kRecordsPids + "exec " + python3 + " \"$@\"\n");
  auto start = Clock::now();
  CommandResult r = scan(dir, " --no-cache");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  pid_t child = pidIn(dir + "/bin/python3.child");
  ASSERT_GT(child, 0);
  EXPECT_FALSE(stillRuns(child)) << "python3's child " << child << " still runs";
  fs::remove_all(dir);
}

// An answer that is not CPython's check's, or a python3 that fails: an error naming CPython's
// parse and what went wrong, never a file quietly taken for parsed or a line dropped.
TEST(CPythonChild, AMalformedAnswerOrAFailedPython3IsAnErrorNamingCPythonsParse) {
  const std::pair<std::string, std::string> cases[] = {
      {"cat >/dev/null\necho 'garbage here'\n",
       "python3's answer is malformed: line 1 is not `0` or `1 [names]`: \"garbage here\""},
      {"cat >/dev/null\necho '1 {\"a\": 1}'\n",
       "python3's answer is malformed: line 1 is not `0` or `1 [names]`: \"1 {\\\"a\\\": 1}\""},
      {"cat >/dev/null\necho '1 [[\"\", false, false, []]]'\n",
       "python3's answer is malformed: line 1 is not `0` or `1 [names]`: "
       "\"1 [[\\\"\\\", false, false, []]]\""},
      {"cat >/dev/null\nprintf '0\\n0\\n'\n",
       "python3's answer is malformed: 2 lines for 1 source"},
      {"cat >/dev/null\nprintf '0'\n",
       "python3's answer is malformed: 1 line for 1 source, the last unended"},
      {"cat >/dev/null\n", "python3's answer is malformed: 0 lines for 1 source"},
      {"cat >/dev/null\nprintf 'Traceback (most recent call last):\\nRuntimeError: boom\\n' >&2\n"
       "exit 3\n",
       "python3 exited with status 3: RuntimeError: boom"},
      {"cat >/dev/null\nkill -9 $$\n", "python3 was killed by signal 9"},
      {"exit 0\n", "python3's answer is malformed: 0 lines for 1 source"},
  };
  for (const auto& [script, why] : cases) {
    std::string dir = projectWithPython3("cpy-malformed", script);
    CommandResult r = scan(dir, " --no-cache");
    EXPECT_EQ(r.status, 2) << script;
    EXPECT_EQ(r.err, noAnswer(why)) << script;
    fs::remove_all(dir);
  }
}

// No python3 at all: the file stays a parse error that says why.
TEST(CPythonChild, WithoutPython3TheErrorSaysSo) {
  std::string dir = projectWithPython3("cpy-none", "");
  fs::remove(dir + "/bin/python3");
  CommandResult r = runCommand("cd " + dir + " && PATH=" + dir + "/bin " + kBin +
                               " scan -q --no-cache --rules py.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, noAnswer("could not run python3: No such file or directory"));
  fs::remove_all(dir);
}

// What python3 did not answer is not cached: the next scan, with a python3 that answers, asks
// again, and finds the file parses.
TEST(CPythonChild, AFileCPythonGaveNoAnswerForIsNotCached) {
  std::string dir = projectWithPython3("cpy-cache", "cat >/dev/null\necho garbage\n");
  CommandResult failed = scan(dir, "");
  EXPECT_EQ(failed.status, 2);
  EXPECT_EQ(failed.err, noAnswer("python3's answer is malformed: line 1 is not `0` or `1 "
                                 "[names]`: \"garbage\""));
  CommandResult answered = scan(dir, "", /*realPython3=*/true);
  EXPECT_EQ(answered.status, 0) << answered.err;
  EXPECT_EQ(answered.err, "");
  CommandResult again = scan(dir, "", /*realPython3=*/true);  // from the cache now
  EXPECT_EQ(again.status, 0) << again.err;
  fs::remove_all(dir);
}

// SIGTERM or SIGINT to gridlock while python3 parses: python3's group (it and the child it
// left) is stopped, and gridlock exits 128+signal saying so.
TEST(CPythonChild, ASignalStopsPython3AndItsGroup) {
  for (int signal : {SIGTERM, SIGINT}) {
    std::string dir = projectWithPython3("cpy-signal", kRecordsPids + "exec sleep 60\n");
    std::string errPath = dir + "/err", pidPath = dir + "/bin/python3.pid";
    pid_t gridlock = spawnProcess({kBin, "scan", "-q", "--no-cache", "--rules", "py.json"},
                                  {"PATH=" + dir + "/bin:" + std::getenv("PATH")}, errPath, dir);
    pid_t python3 = 0, child = 0;
    for (int i = 0; i < 1500 && (python3 <= 0 || child <= 0); ++i) {  // 30 s for the scan
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      python3 = pidIn(pidPath);
      child = pidIn(dir + "/bin/python3.child");
    }
    ASSERT_GT(python3, 0) << readFile(errPath);
    ::kill(gridlock, signal);
    std::optional<int> status = waitOrKill(gridlock, std::chrono::seconds(20));
    EXPECT_TRUE(status) << "gridlock did not end on signal " << signal;
    bool left = stillRuns(python3), childLeft = child > 0 && stillRuns(child);
    if (left) ::kill(python3, SIGKILL);  // whatever happened, leave nothing behind
    if (childLeft) ::kill(child, SIGKILL);
    EXPECT_TRUE(status && WIFEXITED(*status) && WEXITSTATUS(*status) == 128 + signal)
        << signal << ": status " << status.value_or(-1);
    EXPECT_FALSE(left) << "python3 " << python3 << " still runs";
    EXPECT_GT(child, 0);
    EXPECT_FALSE(childLeft) << "python3's child " << child << " still runs";
    EXPECT_EQ(readFile(errPath),
              "gridlock: interrupted by signal " + std::to_string(signal) +
                  (signal == SIGTERM ? " (SIGTERM)" : " (SIGINT)") +
                  "; stopped the program it was running and removed its temporary files; "
                  "nothing was written\n");
    fs::remove_all(dir);
  }
}

}  // namespace
}  // namespace gridlock::test
