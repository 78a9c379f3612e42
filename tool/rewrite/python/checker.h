// The Python rewrite's independent check (rewrite/python/checks): pyright run on the tree before
// and after the change, on the changed files and the files that call into them (not the whole tree:
// on Megatron-LM's megatron/core that is minutes per run), so that a changed file that gains an
// undefined name, a call that no longer fits, an unknown attribute or a syntax error is held back
// like one that does not compile.
#pragma once

#include "apply/edits.h"
#include "index/inventory.h"
#include "rewrite/core/rewriter.h"
#include "rewrite/python/checks/diagnostic_diff.h"
#include "rewrite/python/plan.h"

#include <map>
#include <string>
#include <vector>

namespace gridlock::rewrite::py {

// The changed files and every file with a call or construction that reaches a function or
// class they define (Program's sites), root-relative, sorted.
std::vector<std::string> filesToCheck(const index::Inventory& inv, const apply::Prepared& p);

struct CheckerOutcome {
  std::map<std::string, std::string> held;  // changed file -> its first new diagnostic
  std::vector<std::string> log;             // what pyright found, for stderr
  std::vector<std::string> warnings;        // "warning: [python-checker-missing] ..."
  std::string error;                        // not empty: nothing may be written
};

// `options.checkerMayBeMissing`: no pyright (or a failed run) is a warning, not an error;
// `options.pyrightTimeoutSeconds`: how long one pyright run may take.
//
// `hints`: the group hints the plan wrote, by file. A new diagnostic in a changed file that is
// only pyright not knowing a method the pack's `spell` calls on a group (`Cannot access
// attribute "size" for class "ProcessGroup"`), found on a hinted parameter (`tp_group.size()`
// where the file hints `tp_group: torch.distributed.ProcessGroup`), does not hold the file back:
// the hint's class is the group's, and the pack states that a group has the method; without
// the hint pyright would check the same call not at all. Debian's torch 1.13, which pyright
// resolves, declares `ProcessGroup` a second time, as an empty class for builds without
// torch.distributed, and pyright takes that one. Where the plan added `import torch.distributed`
// for a spelling (an empty `param`), such a diagnostic is accepted on any receiver in the file:
// the import makes the file's own `torch.distributed.ProcessGroup` hints known to pyright, whose
// `.size()` calls it then finds on that empty class. Each such diagnostic is logged as accepted.
CheckerOutcome checkWithPyright(const index::Inventory& inv, const apply::Prepared& p,
                                const std::string& root, const RewriteOptions& options,
                                const std::map<std::string, std::vector<GroupHint>>& hints = {});

// What keeps a Python rewrite from being verified, known before any planning: no python3 to
// compile with, or (unless `checkerMayBeMissing`) no pyright (rewrite/python/checks/tools.h).
// The error checkWithPyright would give after planning and preparing, "" when both are there.
std::string checkerMissing(bool checkerMayBeMissing);

// Whether pyright's diagnostic `d` in the rewritten `text` is a group method the pack spells,
// called on a parameter `hints` names, unknown to pyright's class of the hint, at every place
// the change added it (`d.at` past `d.before`).
bool groupMethodOnHint(const rewrite::py::checks::NewDiagnostic& d, const std::string& text,
                       const std::vector<GroupHint>& hints);

}  // namespace gridlock::rewrite::py
