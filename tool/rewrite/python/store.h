// Store at construction (docs/rewrite.md, "Python"): a read in an instance method that holds no
// group, which a signature change cannot reach (an override of `forward` is called by the
// framework), takes it from `self`: the class's `__init__` keeps the group it holds
// (`self.tp_group = tp_group`, after its last statement) and the read becomes `self.tp_group`.
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/python/py_state.h"

namespace gridlock::rewrite::py {

// Stores the group for the Python reads substitution left `thread` in instance methods (but
// `__init__`), where the pack's `thread.store` allows it; the others are left to Thread.
void storeReads(PyState& s);

class Store : public StrategyOf<PyState> {
 public:
  std::string_view id() const override { return "store"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Store; }
  void runOn(PyState& s) override { storeReads(s); }
};

}  // namespace gridlock::rewrite::py
