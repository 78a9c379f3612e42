// Rewrite plans (docs/rewrite.md): for every read of an inventory, the edits that remove it or
// the reason it stays. Works on facts only; the edits are byte ranges of the scanned files,
// made into files by rewrite/edits.h. The strategies that make the plan are in rewrite/strategy.h.
#pragma once

#include "apply/edits.h"
#include "facts/verdict.h"
#include "index/inventory.h"
#include "rules/rule_set.h"

#include <map>
#include <string>
#include <vector>

namespace gridlock::rewrite {

// Replace `length` bytes at `offset` of `file` (root-relative) with `text`: the apply library's
// edit, which every language's rewriter makes (apply/edits.h).
using Edit = apply::Edit;

// An #include the edits of a file need ("gridlock/require.h" or <...>).
struct Include {
  std::string file;
  std::string header;
  // `class ns::T`: a declaration that only takes T by reference or pointer, in a header, may
  // declare it instead (rewrite/include_placement.h); "" = include the header.
  std::string forward = {};
};

// What one strategy did: reads it removed, and the places it changed to do so (functions
// threaded, classes that keep the value, lookups declared, call sites given a group).
struct Tally {
  size_t reads = 0;
  size_t places = 0;
};

// Files whose rewritten translation unit did not compile, with the first error: no edit may
// land there; the reads and the Thread closures that would edit them are left as
// `compile_error` (the verify loop plans again without them).
using HeldFiles = std::map<std::string, std::string>;

// Why no edit may land in `file`, or "": a run over some paths (index::Inventory::subset)
// edits only the files they select, though every strategy decides on the whole program (a
// call in another file keeps a fallback live and a parameter list as it is).
std::string outsidePaths(const index::Inventory& inv, const std::string& file);

struct Plan {
  // One verdict per read of the inventory, in its order (facts/verdict.h).
  std::vector<facts::Verdict> verdicts;
  std::vector<Edit> edits;
  std::vector<Include> includes;
  std::map<facts::Strategy, Tally> tallies;
  // Thread's edge functions that declare the edge once instead of passing it at each call
  // (rewrite/edge_hoist.h).
  size_t edgesHoisted = 0;
  // USR -> qualified name of every function whose parameter list the plan changes: code the
  // scan did not see that calls one would stop compiling (rewrite/outside_db.h).
  std::map<std::string, std::string> signatures;

  // What `strategy` did (nothing when it did nothing).
  Tally tally(facts::Strategy strategy) const {
    auto it = tallies.find(strategy);
    return it == tallies.end() ? Tally{} : it->second;
  }
};

// The plan for `inv`. Thread and Collapse need the rewriter's facts (inv.rewrite.collected);
// without them, reads that need a parameter are left as `thread` (not done).
Plan plan(const index::Inventory& inv, const rules::RuleSet& rules,
          const HeldFiles* held = nullptr);

// "N substituted, N required, ..., N left (fix N, ...)": what every strategy did, in their
// order, and the reads left by reason.
std::string summaryLine(const Plan& plan, const index::Inventory& inv);

}  // namespace gridlock::rewrite
