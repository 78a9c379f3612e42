// Substitute (docs/rewrite.md, "Python"): each open read that is no fallback, in inventory
// order, replaced with the value in scope (`self.tp_group`, `pg_collection.tp`, spelled by the
// pack), or left with why nothing in scope holds it; a local assigned from a read is recorded
// for LocalAliases instead. Internal to tool/rewrite/python.
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/python/py_state.h"

namespace gridlock::rewrite::py {

class Substitute : public StrategyOf<PyState> {
 public:
  std::string_view id() const override { return "substitute"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Substitute; }
  void runOn(PyState& s) override;
};

// A fallback Require leaves (its parameter may still be left out), where the def already holds
// its group another way: read `i` replaced with that value, as Substitute gives it elsewhere.
void substituteKeptFallback(PyState& s, size_t i);

}  // namespace gridlock::rewrite::py
