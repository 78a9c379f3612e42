// Counts of an inventory, the numbers every report and the gate agree on.
#pragma once

#include "index/inventory.h"

#include <map>
#include <string>

namespace gridlock::analysis {

// Whether a read counts toward `total` and the gate: not a write, not at an edge, not
// deliberately allowed.
bool counts(const facts::Read& r);

struct Summary {
  size_t total = 0;
  std::map<std::string, size_t> byKind;   // accessor, shim, global_state, laundered (always present)
  std::map<std::string, size_t> byGroup;  // "(collection)"/"(state)" for reads without a group
  std::map<std::string, size_t> byFile;
  std::map<std::string, size_t> byFix;
  size_t filesScanned = 0;
  size_t parseErrors = 0;
  size_t writes = 0;
  size_t edges = 0;
  size_t suppressed = 0;
  size_t fallbacks = 0;
  size_t badSuppressions = 0;
};

Summary summarize(const index::Inventory& inv);

}  // namespace gridlock::analysis
