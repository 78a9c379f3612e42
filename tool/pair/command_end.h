// How a run's test command ended, and when that is an incident: the command was killed by a
// signal or timed out. Such a run may have written every result and still not be trusted.
#pragma once

#include "pair/results.h"

#include <string>

namespace gridlock::pair {

// The signal that ended the command: the one that killed it, or N from an exit status 128+N
// (how a shell reports a command it ran that a signal killed; mpirun does the same); else 0.
int endSignal(const CommandEnd& end);

// Killed by a signal (see endSignal) or timed out. A plain non-zero exit ("tests failed") is not.
bool isIncident(const CommandEnd& end);

// Both incidents, ended by the same signal. Timeouts never match: a run cut short may not have
// reached tests neither tree reported, so two of them prove nothing about each other.
bool sameWay(const CommandEnd& a, const CommandEnd& b);

// "killed by signal 11 (SIGSEGV)", "exited with status 139 (signal 11, SIGSEGV)",
// "timed out after 60s", "exited with status 1".
std::string describe(const CommandEnd& end);

// "SIGSEGV" for 11; "" for a number without a common name.
std::string signalName(int signal);

// The runK.end record: "exit N", "signal N" or "timeout S", one line. parseEnd throws InputError
// naming `path` on anything else.
std::string formatEnd(const CommandEnd& end);
CommandEnd parseEnd(const std::string& text, const std::string& path);

}  // namespace gridlock::pair
