// Laundered reads and dead fallbacks. A helper that takes an optional group and falls back to
// a global when it is missing (often exempt itself) launders that read into every caller that
// omits the argument or passes null; a default argument that reads a global launders it into
// every call that omits it. Each such call site becomes a read of kind `laundered`, and each
// fallback learns whether any site still reaches it. In a subset run (Inventory::subset) the
// sites are those of the whole program, and a laundered read is made at a site in the run's
// files, or at any site of a fallback in them. A call that is both an accessor read (a helper a
// pack names) and a laundered read of that helper is one read: the laundered one. A call of a
// Python accessor with a `state_parameter` that binds that parameter (to anything but None)
// hands the state over and is no read.
#pragma once

#include "index/inventory.h"
#include "rules/rule_set.h"

namespace gridlock::analysis {

void launder(index::Inventory& inv, const rules::RuleSet& rules);

}  // namespace gridlock::analysis
