// The C++ rewrite plan (docs/rewrite.md): for every C++ read of an inventory, the edits that
// remove it or the reason it stays, in the core's Plan (rewrite/core/plan.h), made by the C++
// backend (rewrite/cpp/rewriter.h); rewrite/cpp/finish.h makes its edits into files.
#pragma once

#include "index/inventory.h"
#include "rewrite/core/plan.h"
#include "rules/rule_set.h"

#include <memory>
#include <string>

namespace gridlock::rewrite::cpp {

// An #include the edits of a file need ("gridlock/require.h" or <...>).
struct Include {
  std::string file;
  std::string header;
  // `class ns::T`: a declaration that only takes T by reference or pointer, in a header, may
  // declare it instead (rewrite/cpp/include_placement.h); "" = include the header.
  std::string forward = {};
};

class CppState;

// The plan for `inv` with what finishing it needs (its #includes). Thread and Collapse need
// the rewriter's facts (inv.rewrite.collected); without them, reads that need a parameter are
// left as `thread` (not done).
std::unique_ptr<CppState> planState(const index::Inventory& inv, const rules::RuleSet& rules,
                                    const HeldFiles* held = nullptr);
// Its plan alone.
Plan plan(const index::Inventory& inv, const rules::RuleSet& rules,
          const HeldFiles* held = nullptr);

}  // namespace gridlock::rewrite::cpp
