// The Python rewrite plan (docs/rewrite.md, "Python"): for every Python read of an inventory,
// the edits that remove it or the reason it stays, as rewrite/plan.h makes them for C++: the
// same verdicts, strategies and edits (file, offset, length, text, strategy). The C++ planner
// leaves Python reads to this one; Python's own syntax (what is bound where, the fallback's
// statement, a call's arguments) comes from the files, parsed again here, which the digests
// the scan recorded prove unchanged before anything is written.
#pragma once

#include "index/inventory.h"
#include "rewrite/core/plan.h"
#include "rules/rule_set.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gridlock::rewrite::py {

// A group's type hint Thread wrote: the parameter (`tp_group`), the class the hint names
// (`ProcessGroup`), and the methods the pack's `spell` calls on a group (`size`, `rank`). An
// empty `param` stands for every receiver in the file: the plan imported `torch.distributed`
// there, which makes the file's existing `torch.distributed.ProcessGroup` hints known to pyright.
struct GroupHint {
  std::string param, cls;
  std::set<std::string> methods;
};

// What the Python finish and checks read of a plan besides its verdicts and edits.
struct PyExtras {
  std::set<std::string>
      hinted;  // files whose edits write a type hint (rewrite/python/thread_hints.h)
  std::map<std::string, std::vector<GroupHint>> groupHints;  // by file
  // Reads the edits write, by file and name: Collapse's lookups (a shim read each) and a
  // keyword's fallback on the global written out, which the re-scan of the rewritten files
  // finds beside the reads left.
  std::map<std::string, std::map<std::string, int>> added;
};

class PyState;

// The plan of the Python reads, in the state that made it (its `plan`, its `extras`).
// The files are read under `root` (real path), `overlay`'s contents first (root-relative
// path -> contents). PyRewriter's triage, then its strategies (strategies.cpp); a Python read
// left open is std::logic_error (rewrite/core/planner.h). `unhinted`: files whose edits write
// no type hint (verification found one the checker rejects).
std::unique_ptr<PyState> plan(const index::Inventory& inv, const rules::RuleSet& rules,
                              const std::string& root,
                              const std::map<std::string, std::string>& overlay = {},
                              const HeldFiles* held = nullptr,
                              const std::set<std::string>* unhinted = nullptr);

// The plan `into` given the Python plan's verdicts (of the Python reads of `inv`), edits and
// tallies.
void mergeInto(const index::Inventory& inv, const Plan& py, Plan& into);

}  // namespace gridlock::rewrite::py
