// SIGINT, SIGTERM and SIGHUP while gridlock runs other programs or holds temporary files (pair's
// worktrees, the Python checker's copy of the tree). The handler notes the signal and forwards
// it to the process group of the program running then (it runs in a group of its own, so a
// terminal's Ctrl-C would not reach it); the caller then stops that group, unwinds (destructors
// remove what was made) and exits 128+signal.
#pragma once

#include <sys/types.h>

#include <stdexcept>

namespace gridlock::support {

// Installs the handlers for its lifetime and restores the previous ones after; scopes nest
// (the outermost installs and restores). A signal noted stays noted until the outermost ends.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

// The signal received inside the current InterruptScope, or 0.
int interruptSignal();

// Where the handler forwards a signal: the running program's process group (0: none).
void setForwardGroup(pid_t pgid);

// Thrown once the signal is noticed, so that everything unwinds through its destructors:
// "interrupted by signal 15 (SIGTERM)".
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(int signal);
  int signal() const { return signal_; }

 private:
  int signal_;
};

// Throws Interrupted when a signal was received.
void throwIfInterrupted();

// The signals handled, for blocking them around fork() and resetting them in a child.
const int* interruptSignals();  // 0-terminated

}  // namespace gridlock::support
