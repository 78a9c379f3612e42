// Supply after Thread (docs/rewrite.md, "Python"): a call that leaves a helper's group out, in a
// function Thread has just given that group, passes the new parameter. Supply runs before
// Thread, when the function holds nothing: Megatron-LM's _gather_from_tensor_parallel_region
// gets `tp_group`, and its calls of gather_from_tensor_model_parallel_region(x) then pass it.
// Internal to tool/rewrite/python.
#pragma once

#include "rewrite/core/strategy.h"
#include "rewrite/python/py_state.h"

#include <map>
#include <string>

namespace gridlock::rewrite::py {

// Supplies the laundered calls `supplied` says could not be given a group ("file:line:col" ->
// why) where Thread has since given their def one (PyState::threaded), updating `supplied`, and
// decides again each fallback Require left open for a call now supplied.
void supplyThreaded(PyState& s, std::map<std::string, std::string>& supplied);

// Thread's new parameters passed by the laundered calls in the defs it threaded.
class ThreadCalls : public StrategyOf<PyState> {
 public:
  std::string_view id() const override { return "thread_calls"; }
  std::optional<facts::Strategy> counts() const override { return std::nullopt; }
  void runOn(PyState& s) override { supplyThreaded(s, s.supplied); }
};

}  // namespace gridlock::rewrite::py
