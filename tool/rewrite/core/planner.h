// Plans made by backends (rewrite/core/rewriter.h), and plans merged.
#pragma once

#include "index/inventory.h"
#include "rewrite/core/plan.h"
#include "rewrite/core/plan_state.h"
#include "rewrite/core/rewriter.h"
#include "rules/rule_set.h"

#include <memory>
#include <optional>
#include <string>

namespace gridlock::rewrite {

// The backend's state, triaged (rewrite/core/triage.h), then its strategies in order; a read
// it owns left open is std::logic_error("internal: no rewrite strategy decided on the read at
// FILE:LINE:COL").
std::unique_ptr<PlanState> planWith(Rewriter& backend, const PlanInputs& in);

// Whether `backend` owns a read of `inv`: a backend that owns none is not asked to plan.
bool ownsAny(const Rewriter& backend, const index::Inventory& inv);

// `from` (`by`'s plan of `inv`) into `into`: the verdicts of the reads `by` owns, its edits
// appended, its tallies added, its signatures and fix notes (a file's first note kept).
void mergePlan(const Rewriter& by, const index::Inventory& inv, Plan from, Plan& into);

// std::logic_error("internal: no rewrite backend owns the read at FILE:LINE:COL") for the first
// read of `inv` that none of `backends` (the ones registered) owns.
void checkOwned(const index::Inventory& inv, const Rewriters& backends);

// Every backend's plan of `inv`, merged in their order, unverified: what scan --plan and
// SARIF fixes report. `only`: that language's backend alone plans (the SARIF fixes without
// --plan, C++'s alone), the others' reads keep no verdict. A read no backend owns: checkOwned.
Plan planReads(const index::Inventory& inv, const rules::RuleSet& rules, const std::string& root,
               Rewriters& backends, std::optional<facts::Language> only = std::nullopt);

}  // namespace gridlock::rewrite
