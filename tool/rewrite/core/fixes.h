// Fixes a plan suggests, whatever the backend that made it: the edit `gridlock rewrite` would
// make at each read it substitutes, offered to code scanning (SARIF `fixes`) as a suggestion.
#pragma once

#include "facts/verdict.h"
#include "index/inventory.h"
#include "rewrite/core/plan.h"

#include <map>

namespace gridlock::rewrite {

// By read index: each read whose verdict is Substitute, with the plan's edit at its range;
// its file's fix note (an #include) said in the description.
std::map<size_t, facts::SuggestedFix> suggestedFixes(const index::Inventory& inv, const Plan& plan);

}  // namespace gridlock::rewrite
