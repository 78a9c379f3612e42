// The Python rewrite's verification end to end: py_compile by /usr/bin/python3 and the pinned
// pyright (scripts/setup.sh) on a small package, before and after a rewrite of one or two
// files. Expected diagnostics are pyright's wording for the mistake each rewrite makes, at the
// position worked out from the snippet (1-based).
#include "rewrite/python/checks/verify.h"
#include "rewrite/python/checks/compile_check.h"
#include "rewrite/python/checks/tools.h"
#include "support/run_command.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace gridlock::rewrite::py::checks {
namespace {

namespace fs = std::filesystem;

const char* kComm =
    "def all_reduce(tensor, group):\n"
    "    return tensor\n"
    "\n"
    "\n"
    "def get_tp_group():\n"
    "    return None\n";

// Line 9 reads the global group; line 13 has an undefined name of its own (the baseline).
const char* kModel =
    "from pkg.comm import all_reduce, get_tp_group\n"
    "\n"
    "\n"
    "class Linear:\n"
    "    def __init__(self, tp_group=None):\n"
    "        self.tp_group = tp_group\n"
    "\n"
    "    def forward(self, x):\n"
    "        return all_reduce(x, get_tp_group())\n"
    "\n"
    "\n"
    "def legacy():\n"
    "    return missing_helper()\n";

// kModel with line 9's call replaced by `call` (text from `all_reduce(` to the line's end).
std::string modelCalling(const std::string& call) {
  std::string s = kModel;
  std::string old = "all_reduce(x, get_tp_group())";
  s.replace(s.find(old), old.size(), call);
  return s;
}

class Verify : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = test::makeTempDir("pyverify");
    test::writeFile(root_ + "/pkg/__init__.py", "");
    test::writeFile(root_ + "/pkg/comm.py", kComm);
    test::writeFile(root_ + "/pkg/model.py", kModel);
    tools_ = findTools();
    ASSERT_FALSE(tools_.pyright.empty())
        << tools_.pyrightMissing << " (scripts/setup.sh installs the pinned pyright)";
  }
  void TearDown() override { fs::remove_all(root_); }

  Result verify(std::vector<FileChange> changes,
                WhenCheckerMissing when = WhenCheckerMissing::Fail) {
    Request req{root_, std::move(changes), {}, when, tools_, true, timeout_};
    Result r = verifyChange(req);
    // The user's tree is only read.
    EXPECT_EQ(test::readFile(root_ + "/pkg/model.py"), kModel);
    EXPECT_EQ(test::readFile(root_ + "/pkg/comm.py"), kComm);
    return r;
  }

  std::string root_;
  Tools tools_;
  int timeout_ = kDefaultPyrightTimeoutSeconds;
};

// A fake pyright: /bin/sh running `script`.
std::vector<std::string> shell(const std::string& script) {
  return {"/bin/sh", "-c", script, "sh"};
}

const std::string kCheckedOne =
    R"({"version": "1.1.0", "generalDiagnostics": [], "summary": {"filesAnalyzed": 1}})";

// Whether process `pid` still runs (a zombie waiting to be reaped does not).
bool running(pid_t pid) {
  std::string stat = test::readFile("/proc/" + std::to_string(pid) + "/stat");
  size_t close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

TEST_F(Verify, ACleanRewriteHoldsAndTheBaselineErrorIsNotNew) {
  std::string after =
      "from pkg.comm import all_reduce\n"
      "\n"
      "\n"
      "class Linear:\n"
      "    def __init__(self, tp_group=None):\n"
      "        if tp_group is None:\n"
      "            raise ValueError(\"Linear requires an explicit tp_group\")\n"
      "        self.tp_group = tp_group\n"
      "\n"
      "    def forward(self, x):\n"
      "        return all_reduce(x, self.tp_group)\n"
      "\n"
      "\n"
      "def legacy():\n"
      "    return missing_helper()\n";
  Result r = verify({{"pkg/model.py", kModel, after}});
  EXPECT_FALSE(r.error) << *r.error;
  EXPECT_TRUE(r.failures.empty()) << testing::PrintToString(describe(r));
  EXPECT_EQ(r.checker, CheckerState::Ran);
  EXPECT_EQ(r.checkerVersion, GRIDLOCK_PYRIGHT_VERSION);
  EXPECT_EQ(r.filesChecked, 3);
  EXPECT_EQ(r.diagnosticsBefore, 1);  // missing_helper, line 13 before and 15 after
  EXPECT_EQ(r.diagnosticsAfter, 1);
  EXPECT_TRUE(r.warnings.empty());
}

TEST_F(Verify, AnUndefinedNameIsNewInTheChangedFile) {
  Result r = verify({{"pkg/model.py", kModel, modelCalling("all_reduce(x, pg_collection.tp)")}});
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(describe(r), (std::vector<std::string>{
                             "pkg/model.py:9:30: undefined-name: \"pg_collection\" is not defined "
                             "[reportUndefinedVariable] [new]"}));
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_TRUE(r.failures[0].changed);
  EXPECT_FALSE(r.failures[0].compileError);
}

TEST_F(Verify, ACallWithTooManyArgumentsIsNew) {
  Result r = verify({{"pkg/model.py", kModel, modelCalling("all_reduce(x, self.tp_group, None)")}});
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(describe(r), (std::vector<std::string>{
                             "pkg/model.py:9:45: call-issue: Expected 2 positional arguments "
                             "[reportCallIssue] [new]"}));
}

TEST_F(Verify, AnAttributeTheClassLacksIsNew) {
  Result r = verify({{"pkg/model.py", kModel, modelCalling("all_reduce(x, self.tp_grp)")}});
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(describe(r), (std::vector<std::string>{
                             "pkg/model.py:9:35: attribute-access: Cannot access attribute "
                             "\"tp_grp\" for class \"Linear*\"; Attribute \"tp_grp\" is unknown "
                             "[reportAttributeAccessIssue] [new]"}));
}

TEST_F(Verify, ASignatureChangeBreaksAnUntouchedCallerAndRollsBackTheChange) {
  std::string comm = kComm;
  comm.replace(comm.find("group):"), 7, "group, op):");
  std::vector<FileChange> changes{{"pkg/comm.py", kComm, comm}};
  Result r = verify(changes);
  ASSERT_FALSE(r.error) << *r.error;
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].file, "pkg/model.py");
  EXPECT_FALSE(r.failures[0].changed);
  EXPECT_EQ(filesToRollBack(r, changes),
            (std::map<std::string, std::string>{
                {"pkg/comm.py",
                 "a file the change did not touch has a new diagnostic: pkg/model.py:9:16: "
                 "call-issue: Argument missing for parameter \"op\" [reportCallIssue]"}}));
}

TEST_F(Verify, AFileThatDoesNotCompileFailsWithPythonsError) {
  std::string after = kModel;
  after.replace(after.find("        return all_reduce"), 8, "    ");
  Result r = verify({{"pkg/model.py", kModel, after}});
  ASSERT_FALSE(r.error) << *r.error;
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].compileError,
            "pkg/model.py:9:5: IndentationError: expected an indented block after function "
            "definition on line 8");
  ASSERT_FALSE(r.failures[0].diagnostics.empty());  // pyright's own syntax errors, new too
  EXPECT_EQ(r.failures[0].diagnostics[0].at[0].kind, DiagnosticKind::Syntax);
  EXPECT_EQ(r.failures[0].diagnostics[0].at[0].line, 9);
}

TEST_F(Verify, WithoutPyrightAnErrorOrANamedWarningNeverASilentPass) {
  tools_.pyright.clear();
  tools_.pyrightMissing = "pyright is not installed (test)";
  std::string clean = modelCalling("all_reduce(x, self.tp_group)");
  Result failed = verify({{"pkg/model.py", kModel, clean}});
  EXPECT_EQ(failed.error,
            "the independent checker could not check the Python change: pyright "
            "is not installed (test)");
  EXPECT_EQ(failed.checker, CheckerState::Missing);
  Result warned = verify({{"pkg/model.py", kModel, clean}}, WhenCheckerMissing::Warn);
  EXPECT_FALSE(warned.error);
  EXPECT_TRUE(warned.failures.empty());
  EXPECT_EQ(warned.warnings,
            (std::vector<std::string>{"warning: [python-checker-missing] pyright is not installed "
                                      "(test); the change was checked by compiling it only"}));
  // The compile check still holds without it.
  Result broken = verify({{"pkg/model.py", kModel, std::string(kModel) + "return 1\n"}},
                         WhenCheckerMissing::Warn);
  ASSERT_EQ(broken.failures.size(), 1u);
  EXPECT_EQ(broken.failures[0].compileError,
            "pkg/model.py:14:1: SyntaxError: 'return' outside function");
}

// A pyright that hangs is stopped at the limit, its whole process group with it, and the run
// is a failed one (an error under WhenCheckerMissing::Fail), never a wait without end.
TEST_F(Verify, APyrightPastItsTimeoutIsStoppedAndFails) {
  tools_.pyright = shell("sleep 30");
  timeout_ = 1;
  auto start = std::chrono::steady_clock::now();
  Result r = verify({{"pkg/model.py", kModel, kModel}});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(r.checker, CheckerState::Failed);
  EXPECT_EQ(r.error,
            "the independent checker could not check the Python change: /bin/sh -c sleep 30 sh "
            "did not finish within 1 s and was stopped (rewrite --pyright-timeout SECONDS sets "
            "the limit; the default is 600 s)");
}

// A child pyright leaves running with its stdout open (a language server, a watcher) does not
// hold the check until it ends: the report is read when pyright exits, and the child stopped.
TEST_F(Verify, AChildThatKeepsStdoutOpenDoesNotHangTheCheck) {
  std::string pidFile = root_ + "/child.pid";
  tools_.pyright = shell("sleep 30 & echo $! > " + pidFile + "; echo '" + kCheckedOne + "'");
  auto start = std::chrono::steady_clock::now();
  Result r = verify({{"pkg/model.py", kModel, kModel}});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.checker, CheckerState::Ran);
  EXPECT_EQ(r.filesChecked, 1);
  pid_t child = std::atoi(test::readFile(pidFile).c_str());
  ASSERT_GT(child, 0);
  for (int i = 0; i < 100 && running(child); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(running(child)) << "pyright's child " << child << " still runs";
}

// A report of pyright's shape with a field of the wrong type: an error naming pyright, never an
// exception from the JSON library that names no one.
TEST_F(Verify, AMalformedReportIsAnErrorNamingPyright) {
  tools_.pyright =
      shell(R"(echo '{"version": 3, "generalDiagnostics": [], "summary": {"filesAnalyzed": 1}}')");
  Result r = verify({{"pkg/model.py", kModel, kModel}});
  EXPECT_EQ(r.checker, CheckerState::Failed);
  EXPECT_EQ(r.error,
            "the independent checker could not check the Python change: /bin/sh -c echo "
            "'{\"version\": 3, \"generalDiagnostics\": [], \"summary\": {\"filesAnalyzed\": 1}}' "
            "sh: pyright's JSON report is malformed: [json.exception.type_error.302] type must be "
            "string, but is number");
}

TEST_F(Verify, APyrightThatFailsIsNoPass) {
  tools_.pyright = {"/bin/sh", "-c", "echo broken >&2; exit 3", "sh"};
  Result r = verify({{"pkg/model.py", kModel, kModel}});
  EXPECT_EQ(r.checker, CheckerState::Failed);
  EXPECT_EQ(r.error,
            "the independent checker could not check the Python change: /bin/sh -c "
            "echo broken >&2; exit 3 sh exited with status 3: broken\n");
  tools_.pyright = {"/bin/sh", "-c", "echo '{\"generalDiagnostics\": []}'", "sh"};
  EXPECT_EQ(verify({{"pkg/model.py", kModel, kModel}}).error,
            "the independent checker could not check the Python change: /bin/sh -c echo "
            "'{\"generalDiagnostics\": []}' sh checked no file");
}

TEST_F(Verify, PathsOutsideTheRootAreBadInput) {
  EXPECT_EQ(verify({{"../evil.py", "", "x = 1\n"}}).error,
            "a changed file lies outside the root: ../evil.py");
  Request relative{"pkg", {}, {}, WhenCheckerMissing::Fail, tools_, true};
  EXPECT_EQ(verifyChange(relative).error, "the root to verify is not an absolute directory: pkg");
  EXPECT_FALSE(fs::exists(fs::path(root_).parent_path() / "evil.py"));
}

TEST(CompileSources, EachSourceOnItsOwnWithPythonsMessage) {
  Tools tools = findTools();
  ASSERT_FALSE(tools.python.empty());
  CompileOutcome c = compileSources(tools.python, {"x = 1\n", "def f():\n    nonlocal y\n", ""});
  ASSERT_TRUE(c.ran) << c.error;
  ASSERT_EQ(c.failures.size(), 3u);
  EXPECT_FALSE(c.failures[0]);
  EXPECT_EQ(c.failures[1], "2:5: SyntaxError: no binding for nonlocal 'y' found");
  EXPECT_FALSE(c.failures[2]);
  EXPECT_FALSE(compileSources("/nonexistent/python3", {"x = 1\n"}).ran);
}

TEST(FindTools, AGivenPathThatIsNotThereIsMissingNotReplaced) {
  Tools tools = findTools("/nonexistent/pyright/index.js");
  EXPECT_TRUE(tools.pyright.empty());
  EXPECT_EQ(tools.pyrightMissing,
            "--pyright names /nonexistent/pyright/index.js, which is not a file");
  Tools pinned = findTools();
  ASSERT_EQ(pinned.pyright.size(), 2u);
  EXPECT_TRUE(pinned.pyright[1].ends_with(std::string("/.deps/pyright-") +
                                          GRIDLOCK_PYRIGHT_VERSION + "/index.js"))
      << pinned.pyright[1];
}

}  // namespace
}  // namespace gridlock::rewrite::py::checks
