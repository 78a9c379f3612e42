// The proof that a rewrite holds, whatever the language: each backend plans, finishes its edits
// into files and runs its checks on them (rewrite/core/check.h); a file a check holds back
// takes no edit, and the backend plans again without it; a plan of the verified result must
// edit nothing (idempotent), else the rewrite is refused.
#pragma once

#include "index/inventory.h"
#include "rewrite/core/check.h"
#include "rewrite/core/plan.h"
#include "rewrite/core/rewriter.h"
#include "rules/rule_set.h"

#include <map>
#include <string>
#include <vector>

namespace gridlock::rewrite {

// Each round holds back at least one more file, so the loop ends; this bounds a pathological
// codebase where every round breaks another file.
constexpr int kMaxVerifyRounds = 8;

struct Verified {
  Plan plan;
  apply::Prepared prepared;           // every backend's; changes in file order
  HeldFiles held;                     // files whose edits were rolled back, with the first error
  std::vector<std::string> warnings;  // for stderr, before the log
  std::vector<std::string> log;       // what the checks found, for stderr
  std::string error;                  // not empty: refused, nothing may be written
  std::map<facts::Language, int> rounds;
};

// A read no backend owns: checkOwned's internal error (rewrite/core/planner.h). A backend
// owning a read of `inv` whose cannotVerify() says why refuses before anything is planned. Else
// each backend owning a read, in order, until one refuses. Its rounds: plan, finish; nothing to do
// (or files that cannot be made) -> done; its checks in order (a check marked onlyWhenNothingHeld
// skipped once one held a file; Refuse ends everything, NextRound starts the next round at once); a
// file held or a replan -> the next round (past kMaxVerifyRounds: tooManyRounds()); else the
// rescanned tree planned again, with the round's files as the overlay, and any edit is
// notIdempotent(). The results merge in backend order.
Verified planAndVerify(const index::Inventory& inv, const rules::RuleSet& rules,
                       const std::string& root, const Rescan& rescan, Rewriters& backends);

}  // namespace gridlock::rewrite
