// The first check of a Python verification round (rewrite/core/check.h): CPython compiles
// each changed file's new contents to code (py_compile's check, rewrite/python/checks; nothing
// runs). A file that does not compile is held back, and the next round starts at once: the
// re-scan and pyright need not see it.
#pragma once

#include "rewrite/core/check.h"

namespace gridlock::rewrite::py {

class CompileCheck : public Check {
 public:
  std::string_view id() const override { return "py_compile"; }
  // Refuse when no python3 runs.
  Outcome run(Round& round) override;
};

}  // namespace gridlock::rewrite::py
