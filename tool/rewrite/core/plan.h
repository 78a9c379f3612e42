// A rewrite plan, whatever the language (docs/rewrite.md): for every read of an inventory, the
// edits that remove it or the reason it stays. Backends make it, the core merges, verifies and
// summarises it, reports render its verdicts. Works on facts only: the edits are byte ranges of
// the scanned files, made into files by apply/ and each backend's finish.
#pragma once

#include "apply/edits.h"
#include "facts/verdict.h"

#include <map>
#include <string>
#include <vector>

namespace gridlock::rewrite {

// Replace `length` bytes at `offset` of `file` (root-relative) with `text`: the apply library's
// edit, which every language's rewriter makes (apply/edits.h).
using Edit = apply::Edit;

// What one strategy did: reads it removed, and the places it changed to do so (functions
// threaded, classes that keep the value, lookups declared, call sites given a group);
// `hoisted`: Thread's edge functions that declare the edge once instead of passing it at each
// call (rewrite/cpp/edge_hoist.h).
struct Tally {
  size_t reads = 0;
  size_t places = 0;
  size_t hoisted = 0;
};

// Files whose rewritten contents did not pass verification, with the first error: no edit may
// land there; the reads and the closures that would edit them are left as `compile_error`
// (the verify loop plans again without them).
using HeldFiles = std::map<std::string, std::string>;

struct Plan {
  // One verdict per read of the inventory, in its order (facts/verdict.h).
  std::vector<facts::Verdict> verdicts;
  std::vector<Edit> edits;
  std::map<facts::Strategy, Tally> tallies;
  // USR -> qualified name of every function whose parameter list the plan changes: code the
  // scan did not see that calls one would stop compiling (rewrite/cpp/outside_db.h).
  std::map<std::string, std::string> signatures;
  // File -> what its edits bring besides themselves ("#include x.h"): a SARIF fix's "and".
  std::map<std::string, std::string> fixNotes;

  // What `strategy` did (nothing when it did nothing).
  Tally tally(facts::Strategy strategy) const {
    auto it = tallies.find(strategy);
    return it == tallies.end() ? Tally{} : it->second;
  }
};

}  // namespace gridlock::rewrite
