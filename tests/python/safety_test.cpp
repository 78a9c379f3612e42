// The gate never passes Python it did not read, and the Python rewrite writes only what it
// may (docs/guarantees.md): a directory the walk cannot read or that vanishes, a positional
// path that selects no source, a module linked in from outside the root, a file's line
// endings and indentation.
#include "support/python_project.h"
#include "support/run_command.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

const std::string kBin = GRIDLOCK_BIN;

// writePythonProject's package, with pkg/sub/deep.py reading the group twice: three reads.
std::string projectWithSub(const std::string& tag) {
  std::string dir = makeTempDir(tag);
  writePythonProject(dir);
  writeFile(dir + "/pkg/sub/__init__.py", "");
  writeFile(dir + "/pkg/sub/deep.py",
            "from pkg import ps\n\n\ndef h():\n    return ps.get_tp(), ps.get_tp()\n");
  return dir;
}

std::string gateIn(const std::string& dir) {
  return "cd " + dir + " && " + kBin + " gate --no-cache --rules py.json --baseline b.json";
}

// A directory the user running gridlock cannot read: under root, read by another user
// (65534), for whom mode 000 means what it says; otherwise as the user.
TEST(PythonWalk, ADirectoryThatCannotBeReadIsAnErrorNamingIt) {
  std::string dir = projectWithSub("py-walk-denied");
  ASSERT_EQ(runCommand(gateIn(dir) + " --update -q").status, 0);
  const std::string baseline = readFile(dir + "/b.json");
  ASSERT_NE(baseline.find("\"total\": 3"), std::string::npos) << baseline;
  std::string as = "";
  if (::geteuid() == 0) {
    as = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
    ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
    ASSERT_EQ(::chmod((dir + "/b.json").c_str(), 0666), 0);
  }
  ASSERT_EQ(::chmod((dir + "/pkg/sub").c_str(), 0), 0);
  for (const char* update : {"", " --update"}) {
    CommandResult r = runCommand("cd " + dir + " && " + as + kBin +
                                 " gate --no-cache --rules py.json --baseline b.json" + update);
    EXPECT_EQ(r.status, 2) << update << r.out;
    EXPECT_EQ(r.err, "gridlock: error: pkg/sub: cannot read the directory: Permission denied\n")
        << update;
    EXPECT_EQ(readFile(dir + "/b.json"), baseline) << update;  // never a shrunk baseline
  }
  ::chmod((dir + "/pkg/sub").c_str(), 0755);
  fs::remove_all(dir);
}

// Removed after its parent was listed, before it is read (the walk stopped at that step).
TEST(PythonWalk, ADirectoryThatVanishesIsAnErrorNamingIt) {
  std::string dir = projectWithSub("py-walk-gone");
  ASSERT_EQ(runCommand(gateIn(dir) + " --update -q").status, 0);
  const std::string baseline = readFile(dir + "/b.json");
  Spawned s =
      runStopping({kBin, "gate", "--no-cache", "--root", dir, "--rules", dir + "/py.json",
                   "--baseline", dir + "/b.json", "--update"},
                  {"GRIDLOCK_STOP_AT=walk-listed:1"}, [&] { fs::remove_all(dir + "/pkg/sub"); });
  EXPECT_EQ(s.status, 2);
  EXPECT_EQ(s.err,
            "gridlock: error: pkg/sub: cannot read the directory: No such file or directory\n");
  EXPECT_EQ(readFile(dir + "/b.json"), baseline);
  fs::remove_all(dir);
}

// A positional path that selects no source: a scan and a gate of nothing are errors, not
// "passed"; a path that selects a module still runs.
TEST(PositionalPaths, APathThatSelectsNoSourceIsAnError) {
  std::string dir = projectWithSub("py-nothing");
  writeFile(dir + "/README.md", "# pkg\n");
  writeFile(dir + "/docs/index.md", "# docs\n");
  writeFile(dir + "/tools/run.py", "from pkg import ps\n\nps.get_tp()\n");  // out of scope
  ASSERT_EQ(runCommand(gateIn(dir) + " --update -q").status, 0);
  for (const char* path : {"README.md", "docs", "tools/run.py", "tools"}) {
    for (const char* command : {" gate --baseline b.json", " scan"}) {
      CommandResult r =
          runCommand("cd " + dir + " && " + kBin + command + " --no-cache --rules py.json " + path);
      EXPECT_EQ(r.status, 2) << command << " " << path << ": " << r.out;
      EXPECT_EQ(r.err, "gridlock: error: " + std::string(path) +
                           ": selects no Python or C++ source to scan (no unit is, or includes, "
                           "a file there); nothing would be checked\n")
          << command << " " << path;
    }
  }
  CommandResult some = runCommand(gateIn(dir) + " pkg/sub README.md");
  EXPECT_EQ(some.status, 2);
  CommandResult one = runCommand(gateIn(dir) + " pkg/sub/");
  EXPECT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out,
            "gate: 1 key(s) of files this run did not scan left as they are\n"
            "gate: passed: 2 global reads in the 2 file(s) scanned, as in the baseline\n");
  fs::remove_all(dir);
}

// The smallest Python Require: `g`'s inline fallback, which every call supplies.
const char* kRewritePack = R"({"name": "py", "scope": {"include": ["pkg/**"]},
 "accessors": [
   {"python": "pkg.ps.get_tp", "kind": "accessor", "group": "tp", "yields": "group"}],
 "rewrite": {"python": {"group": "{group}_group"}}})";

// Each line, then `eol`.
template <size_t N>
std::string joined(const std::string (&lines)[N], const std::string& eol) {
  std::string out;
  for (const auto& l : lines) out += l + eol;
  return out;
}

// pkg/use.py with `indent` as its indentation unit and `eol` ending each line.
std::string useModule(const std::string& indent, const std::string& eol) {
  std::string lines[] = {"from pkg import ps",
                         "",
                         "",
                         "def g(x, tp_group=None):",
                         indent + "tp_group = ps.get_tp() if tp_group is None else tp_group",
                         indent + "return tp_group",
                         "",
                         "",
                         "def h(x, tp_group):",
                         indent + "return g(x, tp_group)"};
  return joined(lines, eol);
}

// What Require makes of it: the fallback a raise, in the file's own indentation and line
// endings (a carriage return alone too, as CPython reads old Mac files), the import left
// unused gone.
std::string requiredModule(const std::string& indent, const std::string& eol) {
  std::string lines[] = {"",
                         "",
                         "def g(x, tp_group=None):",
                         indent + "if tp_group is None:",
                         indent + indent + "raise ValueError(\"g requires an explicit tp_group\")",
                         indent + "return tp_group",
                         "",
                         "",
                         "def h(x, tp_group):",
                         indent + "return g(x, tp_group)"};
  return joined(lines, eol);
}

TEST(PythonRewrite, KeepsTheFilesLineEndingsAndIndentation) {
  for (const auto& [indent, eol] : {std::pair<std::string, std::string>{"    ", "\r\n"},
                                    {"\t", "\n"},
                                    {"\t", "\r\n"},
                                    {"    ", "\r"}}) {
    std::string dir = makeTempDir("py-eol");
    writePythonProject(dir);
    writeFile(dir + "/py.json", kRewritePack);
    writeFile(dir + "/pkg/use.py", useModule(indent, eol));
    CommandResult r =
        runCommand("cd " + dir + " && " + kBin +
                   " rewrite --apply --no-cache --python-checker=warn --rules py.json");
    std::string name = (indent == "\t" ? "tab" : std::to_string(indent.size()) + " spaces") +
                       (eol == "\n"   ? ", LF"
                        : eol == "\r" ? ", CR"
                                      : ", CRLF");
    EXPECT_EQ(r.status, 0) << name << ": " << r.err;
    EXPECT_EQ(readFile(dir + "/pkg/use.py"), requiredModule(indent, eol)) << name << "\n" << r.err;
    fs::remove_all(dir);
  }
}

// A module symlinked into the tree from outside it: scanned under its name in the tree, but
// never written (exit 2 naming the link and its target), as a C++ source is not.
TEST(PythonRewrite, RefusesAModuleLinkedInFromOutsideTheRoot) {
  std::string dir = makeTempDir("py-link-out");
  writePythonProject(dir + "/tree");
  writeFile(dir + "/tree/py.json", kRewritePack);
  writeFile(dir + "/outside/use.py", useModule("    ", "\n"));
  fs::remove(dir + "/tree/pkg/use.py");
  fs::create_symlink("../../outside/use.py", dir + "/tree/pkg/use.py");
  CommandResult r = runCommand("cd " + dir + "/tree && " + kBin +
                               " rewrite --apply --no-cache --python-checker=warn --rules py.json");
  EXPECT_EQ(r.status, 2) << r.err;
  std::string real = fs::canonical(dir).string();
  EXPECT_NE(r.err.find("gridlock: error: pkg/use.py: a link to " + real +
                       "/outside/use.py, outside the root " + real +
                       "/tree; gridlock writes only under the root; nothing was changed\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(readFile(dir + "/outside/use.py"), useModule("    ", "\n"));
  EXPECT_TRUE(fs::is_symlink(dir + "/tree/pkg/use.py"));
  fs::remove_all(dir);
}

// Whether process `pid` still runs (a zombie waiting to be reaped does not).
bool running(pid_t pid) {
  std::string stat = readFile("/proc/" + std::to_string(pid) + "/stat");
  size_t close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

// SIGTERM or SIGINT to gridlock while pyright checks a Python rewrite: pyright (in a process
// group of its own, so a terminal's Ctrl-C would not reach it) is stopped, the copy of the tree
// it read is removed, gridlock exits 128+signal, and nothing is written. The pyright here is a
// script that says where it runs and sleeps.
TEST(PythonRewrite, ASignalStopsPyrightAndRemovesItsCopyOfTheTree) {
  for (int signal : {SIGTERM, SIGINT}) {
    std::string dir = makeTempDir("py-signal");
    writePythonProject(dir + "/tree");
    writeFile(dir + "/tree/py.json", kRewritePack);
    writeFile(dir + "/tree/pkg/use.py", useModule("    ", "\n"));
    writeFile(dir + "/pyright", "#!/bin/sh\necho $$ > \"$PYRIGHT_PID\"\nexec sleep 60\n");
    ::chmod((dir + "/pyright").c_str(), 0755);
    fs::create_directories(dir + "/tmp");
    std::string errPath = dir + "/err", pidPath = dir + "/pyright.pid";
    pid_t gridlock = ::fork();
    if (gridlock == 0) {
      int fd = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 2);
      int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 1);
      if (::chdir((dir + "/tree").c_str()) != 0) ::_exit(126);
      ::setenv("GRIDLOCK_PYRIGHT", (dir + "/pyright").c_str(), 1);
      ::setenv("PYRIGHT_PID", pidPath.c_str(), 1);
      ::setenv("TMPDIR", (dir + "/tmp").c_str(), 1);
      ::execl(kBin.c_str(), kBin.c_str(), "rewrite", "--apply", "--no-cache", "--rules", "py.json",
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    pid_t pyright = 0;
    for (int i = 0; i < 1500 && pyright <= 0; ++i) {  // up to 30 s for the scan and py_compile
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      pyright = std::atoi(readFile(pidPath).c_str());
    }
    ASSERT_GT(pyright, 0) << readFile(errPath);
    ::kill(gridlock, signal);
    int status = 0;
    for (int i = 0; i < 1000 && ::waitpid(gridlock, &status, WNOHANG) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (::waitpid(gridlock, &status, WNOHANG) == 0) {
      ::kill(gridlock, SIGKILL);
      ::waitpid(gridlock, &status, 0);
      ADD_FAILURE() << "gridlock did not end on signal " << signal;
    }
    bool left = running(pyright);
    ::kill(pyright, SIGKILL);  // whatever happened, leave nothing behind
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 128 + signal)
        << signal << ": status " << status;
    EXPECT_FALSE(left) << "pyright " << pyright << " still runs";
    EXPECT_TRUE(fs::is_empty(dir + "/tmp")) << fs::directory_iterator(dir + "/tmp")->path();
    EXPECT_EQ(readFile(dir + "/tree/pkg/use.py"), useModule("    ", "\n"));
    EXPECT_TRUE(readFile(errPath).ends_with(
        "gridlock: interrupted by signal " + std::to_string(signal) +
        (signal == SIGTERM ? " (SIGTERM)" : " (SIGINT)") +
        "; stopped the program it was running and removed its temporary files; nothing was "
        "written\n"))
        << readFile(errPath);
    fs::remove_all(dir);
  }
}

}  // namespace
}  // namespace gridlock::test
