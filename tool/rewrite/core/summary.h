// The summary line of a plan, whatever the backends that made it: what was done, by kind of
// verdict, and the reads left, by reason.
#pragma once

#include "index/inventory.h"
#include "rewrite/core/plan.h"
#include "rewrite/core/rewriter.h"
#include "rewrite/core/strategy.h"

#include <string>
#include <vector>

namespace gridlock::rewrite {

// What the plan's verdicts of `kind` did, as the summary line says it ("12 substituted"); ""
// where that kind says nothing when it did nothing (store, supply, collapse).
std::string describeTally(facts::Strategy kind, const Plan& plan);

// "N substituted, N required, ..., N left (fix N, ...)": the kinds in the order Substitute,
// Require, Thread, Store, Supply, Collapse, each as the first of `registered` that counts it
// describes it (describeTally when none does), then the reads left by reason. The same line
// whichever backends are registered, as long as none describes a kind its own way.
std::string summaryLine(const Plan& plan, const index::Inventory& inv,
                        const std::vector<const Strategy*>& registered);
// The same, with every strategy of `all`, in their order.
std::string summaryLine(const Plan& plan, const index::Inventory& inv, const Rewriters& all);

}  // namespace gridlock::rewrite
