// The Python rewrite's proof, as rewrite/verify.h gives the C++ one: plan, prepare, then for
// every changed file (1) CPython compiles its new contents to code (py_compile's check; nothing
// runs), (2) the scan, run again with the new contents laid over the files in memory, finds no
// parse error in it and no read that was not there before the rewrite left it, (3) pyright,
// run before and after the change on the changed files and their callers' (checker.h), finds
// nothing new. A file that fails is held back (its edits rolled back, its reads left
// `compile_error` with the first error) and the rewrite planned again. The last plan of the
// re-scanned tree must edit nothing (idempotent), else the rewrite is refused.
#pragma once

#include "apply/edits.h"
#include "rewrite/core/verify.h"
#include "rewrite/python/checks/verify.h"
#include "rewrite/python/plan.h"

#include <string>
#include <vector>

namespace gridlock::rewrite::py {

struct Verified {
  Plan plan;
  PyExtras extras;
  apply::Prepared prepared;
  rewrite::HeldFiles held;
  std::vector<std::string> log;
  std::vector<std::string> warnings;  // "warning: [python-checker-missing] ...", for stderr
  std::string error;                  // not empty: refused, nothing may be written
};

struct Options {
  // No pyright (or a failed run): a warning and the compile check alone, instead of a refusal.
  bool warnWithoutChecker = false;
  int pyrightTimeoutSeconds = rewrite::py::checks::kDefaultPyrightTimeoutSeconds;  // 0: none
};

Verified planAndVerify(const index::Inventory& inv, const rules::RuleSet& rules,
                       const std::string& root, const rewrite::Rescan& rescan,
                       const Options& options = {});

// The C++ rewrite `into` given the Python one's verdicts, edits, tallies, changed files (in
// file order), refusals, held files and log.
void mergeInto(const index::Inventory& inv, const Verified& py, rewrite::Verified& into);

// Whether the inventory holds a Python read (no Python plan is needed otherwise).
bool hasPythonReads(const index::Inventory& inv);

}  // namespace gridlock::rewrite::py
