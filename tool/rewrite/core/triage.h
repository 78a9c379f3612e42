// The verdicts no strategy needs to think about, whatever the language.
#pragma once

#include "rewrite/core/plan_state.h"
#include "rewrite/core/rewriter.h"

namespace gridlock::rewrite {

// Each open read of `backend`'s language, in this order: a write stays (no reason); an edge
// file's read stays (allowed there); the backend's own first reasons (triageFirst); a
// suppressed read stays; a read in a file verification held back is `compile_error`
// (heldDetail); the backend's own last reasons (triageLast). Reads the backend does not own
// are never opened.
void triage(const Rewriter& backend, PlanState& s);

}  // namespace gridlock::rewrite
