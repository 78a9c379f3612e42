// Runs a program (no shell) and collects what it prints: for the checkers gridlock asks for a
// second opinion (python3, pyright), whose output is the answer.
#pragma once

#include <string>
#include <vector>

namespace gridlock::support {

struct ProgramRun {
  std::vector<std::string> argv;  // argv[0]: a path, or a name looked up in PATH
  std::string cwd;                // empty: ours
  std::string stdinPath;          // empty: /dev/null
  int timeoutSeconds = 0;         // 0: none; else the program's group is stopped then
};

struct ProgramResult {
  bool started = false;  // false: argv[0] could not be run (then `error` says why)
  int exitStatus = -1;   // -1 when it did not exit normally
  int signal = 0;
  bool timedOut = false;  // stopped after timeoutSeconds: no exit status
  std::string out;
  std::string err;
  std::string error;
};

// Runs `run` to its end in a process group of its own, reading its stdout and stderr as they
// come (neither can fill a pipe and stall it). When the program exits, what it printed is
// read until its pipes fall silent, and whatever it left running in its group (a child that
// still holds stdout open) is killed: the run never waits on a descendant. On a timeout the
// group gets SIGTERM, two seconds, then SIGKILL. Inside it holds an InterruptScope
// (support/interrupt.h): SIGINT, SIGTERM or SIGHUP to gridlock is passed to the group, which
// is stopped the same way, and runProgram throws Interrupted once nothing of it runs.
ProgramResult runProgram(const ProgramRun& run);

}  // namespace gridlock::support
