// Which diagnostics a change adds: those of the tree after it, less those of the tree before,
// compared by key, not by position, so that lines a rewrite moved do not count as new.
#pragma once

#include "rewrite/python/checks/diagnostic.h"

#include <string>
#include <vector>

namespace gridlock::rewrite::py::checks {

// The message as a key: every line number it quotes ("line 12", "lines 3", "x.py:12:5")
// replaced by "#", so that a shift elsewhere in the file does not change it.
std::string normalisedMessage(const std::string& message);

// A key (file, kind, rule, normalised message) found more often after the change than before.
struct NewDiagnostic {
  int before = 0;              // how often the key was found before the change
  std::vector<Diagnostic> at;  // every diagnostic with the key after it (more than `before`):
                               // which of them is the new one, a key alone cannot say
};

// The keys whose count rose, in the order of their first diagnostic after the change (file,
// line, column).
std::vector<NewDiagnostic> newDiagnostics(const std::vector<Diagnostic>& before,
                                          const std::vector<Diagnostic>& after);

// `describe(at[0])`, and when the key was there before or is there more than once, how often
// before and after and the other lines: "(1 before, 2 after; also line 40)".
std::string describe(const NewDiagnostic& d);

}  // namespace gridlock::rewrite::py::checks
