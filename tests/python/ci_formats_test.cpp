// What a CI job asks of the gridlock binary (docs/ci.md): `--format github`, GitHub's workflow
// commands on stdout and the verdict on stderr; `--omit-edges`, refused with JSON.
#include "support/python_project.h"
#include "support/run_command.h"

#include <gtest/gtest.h>

namespace gridlock::test {
namespace {

const std::string kBin = GRIDLOCK_BIN;

// A new read in pkg.use.g (line 9 of pkg/use.py, `    return ps.get_tp()`): the annotation is
// at the accessor's name (column 15), up to the end of the call (column 23, exclusive).
TEST(CiFormats, GateWritesGithubAnnotations) {
  std::string dir = makeTempDir("ci-github");
  writePythonProject(dir);
  const std::string gate =
      "cd " + dir + " && " + kBin + " gate --no-cache --rules py.json --baseline b.json";
  ASSERT_EQ(runCommand(gate + " --update -q").status, 0);
  addASecondRead(dir);
  CommandResult r = runCommand(gate + " --format github");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out,
            "::error file=pkg/use.py,line=9,col=15,endLine=9,endColumn=23,title=gridlock-gate::new "
            "global read: global tp group from pkg.ps.get_tp in pkg.use.g; fix: thread a group "
            "parameter\n");
  EXPECT_EQ(r.err, "gate: FAILED: global reads rose (1 in the baseline, 2 now)\n");

  CommandResult scan = runCommand("cd " + dir + " && " + kBin +
                                  " scan -q --no-cache --rules py.json --format github");
  EXPECT_EQ(scan.status, 0) << scan.err;
  EXPECT_EQ(scan.out,
            "::warning file=pkg/use.py,line=5,col=15,endLine=5,endColumn=23,title=gridlock-global-"
            "read::global tp group from pkg.ps.get_tp in pkg.use.f; fix: thread a group "
            "parameter\n"
            "::warning file=pkg/use.py,line=9,col=15,endLine=9,endColumn=23,title=gridlock-global-"
            "read::global tp group from pkg.ps.get_tp in pkg.use.g; fix: thread a group "
            "parameter\n");
}

TEST(CiFormats, OmitEdgesIsRefusedWithJson) {
  std::string dir = makeTempDir("ci-omit");
  writePythonProject(dir);
  CommandResult r = runCommand("cd " + dir + " && " + kBin +
                               " scan --no-cache --rules py.json --format json --omit-edges");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "gridlock: error: --omit-edges: the JSON report lists every read (its \"edge\" says "
            "which are an edge file's); leave the flag out or filter on it\n");
  EXPECT_EQ(r.out, "");
}

// --color auto on a terminal (script(1) gives the command one): colours, unless NO_COLOR is set
// to something; set but empty, it asks for nothing (no-color.org).
TEST(CiFormats, ColorAutoFollowsNoColorOnATerminal) {
  std::string dir = makeTempDir("ci-color");
  writePythonProject(dir);
  auto onTerminal = [&](const std::string& env) {
    return runCommand("cd " + dir + " && script -qec \"env " + env + " " + kBin +
                      " scan -q --no-cache --rules py.json\" /dev/null")
        .out;
  };
  const std::string escape = "\033[";
  EXPECT_NE(onTerminal("-u NO_COLOR").find(escape), std::string::npos);
  EXPECT_EQ(onTerminal("NO_COLOR=1").find(escape), std::string::npos);
  std::string empty = onTerminal("NO_COLOR=");
  EXPECT_NE(empty.find(escape), std::string::npos) << empty;
  // And the scan ran: its read is there.
  EXPECT_NE(empty.find("pkg/use.py"), std::string::npos) << empty;
}

}  // namespace
}  // namespace gridlock::test
