// The last check of a Python verification round (rewrite/core/check.h), skipped in a round
// where an earlier one held a file back (pyright is the slowest): pyright, run before and after
// the change on the changed files and their callers' (checker.h), finds nothing new. A file it
// finds something new in is held back, but one whose edits wrote a type hint is planned again
// without hints first (`unhinted`): the hint's type may be one the checker knows less of than
// the code did (Debian's torch 1.13 declares torch.distributed.ProcessGroup as a stub without
// size()).
#pragma once

#include "rewrite/core/check.h"
#include "rewrite/core/rewriter.h"

#include <set>
#include <string>

namespace gridlock::rewrite::py {

class PyrightCheck : public Check {
 public:
  // `unhinted`: the rewriter's files whose edits write no type hint, which this check adds to.
  PyrightCheck(const RewriteOptions& options, std::set<std::string>& unhinted)
      : options_(options), unhinted_(unhinted) {}
  std::string_view id() const override { return "pyright"; }
  bool onlyWhenNothingHeld() const override { return true; }
  // Refuse when pyright cannot check the change (unless checkerMayBeMissing).
  Outcome run(Round& round) override;

 private:
  RewriteOptions options_;
  std::set<std::string>& unhinted_;
};

}  // namespace gridlock::rewrite::py
