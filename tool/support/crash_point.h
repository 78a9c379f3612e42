// Named points in the code that writes a user's files, where a test can make the process die
// (GRIDLOCK_CRASH_AT=NAME:N: `_exit(137)`, as after kill -9, at the N-th time NAME is
// reached), stop (GRIDLOCK_STOP_AT=NAME:N: SIGSTOP, a barrier a test waits for with
// waitpid(WUNTRACED) and ends with SIGCONT) or record every point it reaches
// (GRIDLOCK_TRACE_POINTS=FILE: one "NAME:N" line each). Tests use them to prove that a kill at
// any step leaves something recoverable, without sleeps. Unset, a point costs one lookup.
#pragma once

#include <string_view>

namespace gridlock::support {

// The process reached `name` (a spelling from one of the step lists: apply/journal.h,
// support/atomic_write.h).
void crashPoint(std::string_view name);

// A point in code that only reads the tree (a directory walk: support/walk.h), where a test
// stops the process (GRIDLOCK_STOP_AT=NAME:N) to change the tree under it. Never traced nor a
// crash: a kill while gridlock only reads leaves nothing to recover.
void stopPoint(std::string_view name);

}  // namespace gridlock::support
