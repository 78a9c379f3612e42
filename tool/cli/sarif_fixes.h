// SARIF `fixes` for the reads a rewrite plan substitutes: the edit `gridlock rewrite` would
// make, offered to code scanning as a suggestion.
#pragma once

#include "index/inventory.h"
#include "report/reports.h"
#include "rewrite/core/plan.h"

#include <map>

namespace gridlock::cli {

// By read index: each read whose verdict is a substitution, with the plan's edit of it.
std::map<size_t, report::SarifFix> substitutionFixes(const index::Inventory& inv,
                                                     const rewrite::Plan& plan);

}  // namespace gridlock::cli
