// The rewrite's proof that its result compiles: plan, lay the edited files over the originals
// in memory, re-parse every translation unit. A TU that did not fail before and fails now
// holds its changed files back (no edit may land there, and the Thread closures and checks
// that need them are dropped), and the rewrite is planned again; when the failure cannot be
// pinned on a file that changed, or when it still breaks after kMaxVerifyRounds rounds of
// holding back, everything is rolled back.
// The last re-parse also proves the result idempotent: planning it again edits nothing.
#pragma once

#include "index/inventory.h"
#include "rewrite/edits.h"
#include "rewrite/plan.h"
#include "rules/rule_set.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace gridlock::rewrite {

// Each round holds back at least one more file, so the loop ends; this bounds a pathological
// codebase where every round breaks a new TU.
constexpr int kMaxVerifyRounds = 8;

// Scans the codebase again with `overlay` (absolute path -> contents) in place of the files
// on disk, collecting the rewriter's facts.
using Rescan = std::function<index::Inventory(const std::map<std::string, std::string>& overlay)>;

struct Verified {
  Plan plan;
  apply::Prepared prepared;
  HeldFiles held;                // files whose edits were rolled back, with the first error
  std::vector<std::string> log;  // what the re-parses found, for stderr
  std::string error;             // not empty: refused, nothing may be written
  int rounds = 0;
};

Verified planAndVerify(const index::Inventory& inv, const rules::RuleSet& rules,
                       const std::string& root, const Rescan& rescan);

}  // namespace gridlock::rewrite
