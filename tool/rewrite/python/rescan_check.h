// The second check of a Python verification round (rewrite/core/check.h): the scan, run again
// with the changed files' new contents laid over them in memory, finds no parse error in a
// changed file that was not there before, and no read in it that the plan did not leave (or
// write: Collapse's lookups, a keyword's fallback). Such a file is held back.
#pragma once

#include "rewrite/core/check.h"

namespace gridlock::rewrite::py {

class RescanCheck : public Check {
 public:
  std::string_view id() const override { return "rescan"; }
  Outcome run(Round& round) override;
};

}  // namespace gridlock::rewrite::py
