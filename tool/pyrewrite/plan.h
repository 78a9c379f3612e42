// The Python rewrite plan (docs/rewrite.md, "Python"): for every Python read of an inventory,
// the edits that remove it or the reason it stays, as rewrite/plan.h makes them for C++: the
// same verdicts, strategies and edits (file, offset, length, text, strategy). The C++ planner
// leaves Python reads to this one; Python's own syntax (what is bound where, the fallback's
// statement, a call's arguments) comes from the files, parsed again here, which the digests
// the scan recorded prove unchanged before anything is written.
#pragma once

#include "index/inventory.h"
#include "pyrewrite/sources.h"
#include "rewrite/core/plan.h"
#include "rules/rule_set.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gridlock::pyrewrite {

// A group's type hint Thread wrote: the parameter (`tp_group`), the class the hint names
// (`ProcessGroup`), and the methods the pack's `spell` calls on a group (`size`, `rank`). An
// empty `param` stands for every receiver in the file: the plan imported `torch.distributed`
// there, which makes the file's existing `torch.distributed.ProcessGroup` hints known to pyright.
struct GroupHint {
  std::string param, cls;
  std::set<std::string> methods;
};

struct Plan {
  // One per read of the inventory: set for each Python read, empty for the others.
  std::vector<std::optional<facts::Verdict>> verdicts;
  std::vector<apply::Edit> edits;
  std::map<facts::Strategy, rewrite::Tally> tallies;
  std::set<std::string> hinted;  // files whose edits write a type hint (pyrewrite/thread_hints.h)
  std::map<std::string, std::vector<GroupHint>> groupHints;  // by file
  // Reads the edits write, by file and name: Collapse's lookups (a shim read each) and a
  // keyword's fallback on the global written out, which the re-scan of the rewritten files
  // finds beside the reads left.
  std::map<std::string, std::map<std::string, int>> added;
};

// `unhinted`: files whose edits write no type hint (verification found one the checker rejects).
Plan plan(const index::Inventory& inv, const rules::RuleSet& rules, Sources& sources,
          const rewrite::HeldFiles* held = nullptr,
          const std::set<std::string>* unhinted = nullptr);

// The C++ plan `into` given the Python plan's verdicts, edits and tallies.
void mergeInto(const Plan& py, rewrite::Plan& into);

}  // namespace gridlock::pyrewrite
