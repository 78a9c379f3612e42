// Runs the user's build and test commands (through /bin/sh) and git, with a working directory,
// extra environment and an optional timeout.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gridlock::pair {

struct ProcessResult {
  int exitStatus = 0;  // valid when signal == 0 and !timedOut
  int signal = 0;
  bool timedOut = false;
  // Processes of the command's group still running when it exited (background children:
  // `server &`), "PID NAME" each; runProcess ended them with the group.
  std::vector<std::string> leftovers;
  bool ok() const { return exitStatus == 0 && signal == 0 && !timedOut; }
  std::string describe() const;  // "exited with status 1", "killed by signal 11", "timed out"
};

struct ProcessSpec {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH
  std::string cwd;
  std::vector<std::pair<std::string, std::string>> env;  // added to (or replacing in) ours
  int timeoutSeconds = 0;          // 0: none; else the whole process group is killed
  std::string* capture = nullptr;  // collects stdout (to EOF, unless a timeout or an interrupt
                                   // cuts it short); else stdout goes to our stderr, so that
                                   // our stdout carries only the report
  // After SIGINT/SIGTERM/SIGHUP (interrupt.h) runProcess stops the command's group and throws
  // Interrupted, and does not start a command at all. Cleanup (removing a worktree) runs anyway.
  bool interruptible = true;
};

// Runs the command in a process group of its own. On a timeout, or an interrupt, the group gets
// SIGTERM (an interrupt: the signal itself, from the handler), two seconds to end, then SIGKILL;
// so does a group whose command exited leaving processes in it running (named in `leftovers`):
// runProcess returns only when no process of the group is left running. (A process that left
// the group, with setsid or setpgid, is not seen.)
ProcessResult runProcess(const ProcessSpec& spec);

// `command` through /bin/sh -c.
ProcessResult runShell(const std::string& command, const std::string& cwd,
                       const std::vector<std::pair<std::string, std::string>>& env,
                       int timeoutSeconds);

}  // namespace gridlock::pair
