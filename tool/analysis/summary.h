// Counts of an inventory, the numbers every report and the gate agree on.
#pragma once

#include "facts/verdict.h"
#include "index/inventory.h"

#include <map>
#include <string>
#include <vector>

namespace gridlock::analysis {

// Whether a read counts toward `total` and the gate: not a write, not at an edge, not
// deliberately allowed.
bool counts(const facts::Read& r);
// Whether a write counts toward the gate's write keys: a write, not at an edge, not allowed.
bool countsWrite(const facts::Read& r);

struct Summary {
  size_t total = 0;
  // Accessor, Shim, GlobalState and Laundered always present.
  std::map<facts::ReadKind, size_t> byKind;
  std::map<std::string, size_t> byGroup;  // "(collection)"/"(state)" for reads without a group
  std::map<std::string, size_t> byFile;
  std::map<std::string, size_t> byFix;  // by the fix as the reports spell it (hint or verdict)
  size_t filesScanned = 0;
  size_t parseErrors = 0;
  size_t writes = 0;
  size_t edges = 0;
  size_t suppressed = 0;
  size_t fallbacks = 0;
  size_t badSuppressions = 0;
  size_t unusedSuppressions = 0;  // allows that cover no read (Inventory::unusedAllows)
  index::CacheCounts cache;
};

// `verdicts`, when given, holds a rewrite plan's verdict for each read (same order); the
// fixes are then counted from them.
Summary summarize(const index::Inventory& inv,
                  const std::vector<facts::Verdict>* verdicts = nullptr);

}  // namespace gridlock::analysis
