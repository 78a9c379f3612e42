// Calls that leave a helper's group out (laundered reads): an edge file's call is given the
// global where its fallback becomes an error (EdgeSupply, planned here, emitted by EdgeCalls),
// any other passes the group its caller holds (supply.h), else is left open_fallback. Runs
// first: Require's proof that a fallback is dead reads what was supplied. Internal to
// tool/rewrite/python.
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/python/py_state.h"

namespace gridlock::rewrite::py {

class LaunderedCalls : public StrategyOf<PyState> {
 public:
  std::string_view id() const override { return "laundered_calls"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Supply; }
  void runOn(PyState& s) override;
};

}  // namespace gridlock::rewrite::py
