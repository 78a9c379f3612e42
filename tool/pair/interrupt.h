// SIGINT, SIGTERM and SIGHUP while pair runs. The handler forwards the signal to the process
// group of the command running then (mpirun and its ranks live in it, not in ours, so a
// terminal's Ctrl-C would not reach them) and notes it; pair then stops that group, unwinds
// (destructors remove the worktrees and temporary results) and exits 128+signal.
#pragma once

#include <sys/types.h>
#include <stdexcept>

namespace gridlock::pair {

// Installs the handlers for its lifetime and restores the previous ones after.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

// The signal received inside the current InterruptScope, or 0.
int interruptSignal();

// Where the handler forwards a signal: the running command's process group (0: none).
void setForwardGroup(pid_t pgid);

// Thrown once pair notices the signal, so that everything unwinds through its destructors.
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(int signal);
  int signal() const { return signal_; }

 private:
  int signal_;
};

// Throws Interrupted when a signal was received.
void throwIfInterrupted();

// The signals handled, for blocking them around fork().
const int* interruptSignals();  // 0-terminated

}  // namespace gridlock::pair
