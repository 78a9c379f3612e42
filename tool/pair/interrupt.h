// SIGINT, SIGTERM and SIGHUP while pair runs: support/interrupt.h's scope. The handler forwards
// the signal to the process group of the command running then (mpirun and its ranks live in
// it, not in ours, so a terminal's Ctrl-C would not reach them) and notes it; pair then stops
// that group, unwinds (destructors remove the worktrees and temporary results) and exits
// 128+signal.
#pragma once

#include "support/interrupt.h"

namespace gridlock::pair {

using support::Interrupted;
using support::InterruptScope;
using support::interruptSignal;
using support::interruptSignals;
using support::setForwardGroup;
using support::throwIfInterrupted;

}  // namespace gridlock::pair
