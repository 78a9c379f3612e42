// The Python rewrite's independent check (python/verify): pyright run on the tree before and
// after the change, on the changed files and the files that call into them (not the whole
// tree: on Megatron-LM's megatron/core that is minutes per run), so that a changed file that
// gains an undefined name, a call that no longer fits, an unknown attribute or a syntax error
// is held back like one that does not compile.
#pragma once

#include "apply/edits.h"
#include "index/inventory.h"

#include <map>
#include <string>
#include <vector>

namespace gridlock::pyrewrite {

// The changed files and every file with a call or construction that reaches a function or
// class they define (Program's sites), root-relative, sorted.
std::vector<std::string> filesToCheck(const index::Inventory& inv, const apply::Prepared& p);

struct CheckerOutcome {
  std::map<std::string, std::string> held;  // changed file -> its first new diagnostic
  std::vector<std::string> log;             // what pyright found, for stderr
  std::vector<std::string> warnings;        // "warning: [python-checker-missing] ..."
  std::string error;                        // not empty: nothing may be written
};

// `warnWithoutChecker`: no pyright (or a failed run) is a warning, not an error.
CheckerOutcome checkWithPyright(const index::Inventory& inv, const apply::Prepared& p,
                                const std::string& root, bool warnWithoutChecker);

}  // namespace gridlock::pyrewrite
