// py_compile's check without its .pyc: each source compiled to a code object (which also
// finds what the parser alone accepts and the compiler rejects: `return` outside a function,
// a misplaced `nonlocal`), by the interpreter the code runs on, nothing run and nothing written.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gridlock::rewrite::py::checks {

struct CompileOutcome {
  bool ran = false;  // false: the interpreter could not be run (then `error` says why)
  std::string error;
  // Per source, in order: nothing when it compiles, else "LINE:COL: SyntaxError: message".
  std::vector<std::optional<std::string>> failures;
};

// Compiles every source with `python` (one process for all of them).
CompileOutcome compileSources(const std::string& python, const std::vector<std::string>& sources);

}  // namespace gridlock::rewrite::py::checks
