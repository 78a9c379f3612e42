// Runs a program (no shell) and collects what it prints: for the checkers gridlock asks for a
// second opinion (python3, pyright), whose output is the answer.
#pragma once

#include "support/interrupt.h"

#include <sys/types.h>

#include <string>
#include <string_view>
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

// A run as runProgram makes it, in steps, for a caller that may hand the program its input
// while it runs (python3 parsing sources as the scan meets them): started at construction,
// with its stdin run.stdinPath or, when `fed`, a socket that feed() writes; collected by
// finish() or stop(), with what runProgram promises. It holds its InterruptScope from start to
// end, so one may be made on one thread and finished on another, but never two at once.
class RunningProgram {
 public:
  RunningProgram(const ProgramRun& run, bool fed);  // run.timeoutSeconds is finish()'s to say
  RunningProgram(const RunningProgram&) = delete;
  RunningProgram& operator=(const RunningProgram&) = delete;
  ~RunningProgram();  // a program neither finished nor stopped is stopped, never left running

  bool started() const { return result_.started; }

  enum class Fed { Yes, Closed, TimedOut, Interrupted };
  // Writes `bytes` to its stdin (when fed), reading what it prints meanwhile (so that neither
  // side stalls): Closed when there is none to write (not started, not fed, or it ended),
  // TimedOut when it took no byte for `timeoutSeconds` (0: no limit), Interrupted when a
  // signal came.
  Fed feed(std::string_view bytes, int timeoutSeconds);
  // Ends its stdin and waits for it to end; past `timeoutSeconds` from now (0: no limit) its
  // group is stopped and the result is timedOut. Throws Interrupted as runProgram does.
  ProgramResult finish(int timeoutSeconds);
  // Stops its group now (SIGTERM, two seconds, SIGKILL): a result timedOut. Throws Interrupted
  // as runProgram does.
  ProgramResult stop();

 private:
  ProgramResult end(bool stopNow, int timeoutSeconds);

  InterruptScope interrupts_;  // first made, last ended
  ProgramResult result_;
  pid_t pid_ = -1;  // the program, its group's leader; -1 once collected
  int in_ = -1;     // our end of its stdin when fed: a socket, so that a write raises no SIGPIPE
  int pipes_[2] = {-1, -1};  // its stdout and stderr
};

}  // namespace gridlock::support
