// The gate's policy on a run: which baseline keys its counts speak for (and so may fall), why a
// key that seems to have fallen keeps its count, and whether its packs matched anything at all
// (what files it must have seen: analysis/uncovered_files.h). Used with compare() and updated()
// (analysis/baseline.h) by `gridlock gate` and `gridlock merge --baseline`.
#pragma once

#include "analysis/baseline.h"
#include "index/inventory.h"
#include "rules/rule_set.h"

#include <set>
#include <string>
#include <vector>

namespace gridlock::analysis {

// What a gate judges: one run's facts.
struct GatedRun {
  const index::Inventory& inventory;
  const rules::RuleSet& rules;
  std::string root;     // real path
  bool subset = false;  // positional paths (or a diff) restricted the run to some files
};

// The baseline keys this run's counts speak for: only those may fall. A key is covered when
// its file was scanned whole (not in the chain of a parse error); in a run over some files, a
// laundered key (named for a helper, not a rule) is not, since its count depends on helpers
// anywhere. A full run also covers the files gone from the tree, and a run over a diff the
// files it deletes (`deleted`: root-relative, deletedUnderRoot). Holds references to `run`'s
// inventory and rules.
Covers coverage(const GatedRun& run, std::set<std::string> deleted);

// Why a key that seems to have fallen keeps its count; "" for a file outside a run over some
// files (those are only counted).
std::string keptBecause(const GatedRun& run, const BaselineKey& key);

// The packs none of whose rules any unit of a full run declares (rules::RuleSet::nothingMatched):
// the gate would count no reads at all, and must not judge, nor write a baseline of 0 reads.
// Empty for a run over some files, whose units may well declare nothing of them.
std::vector<std::string> packsMatchingNothing(const GatedRun& run);

// The root-relative names of those of `deleted` (absolute paths a diff deletes) under `root`.
std::set<std::string> deletedUnderRoot(const std::vector<std::string>& deleted,
                                       const std::string& root);

}  // namespace gridlock::analysis
