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
};

struct ProgramResult {
  bool started = false;  // false: argv[0] could not be run (then `error` says why)
  int exitStatus = -1;   // -1 when it did not exit normally
  int signal = 0;
  std::string out;
  std::string err;
  std::string error;
};

// Runs `run` to its end, reading its stdout and stderr as they come (neither can fill a pipe
// and stall it).
ProgramResult runProgram(const ProgramRun& run);

}  // namespace gridlock::support
