// One rewrite strategy (docs/rewrite.md): it takes the reads it knows how to remove, adds
// their edits to the plan and applies their verdicts, or leaves them with a reason. The
// planner runs every strategy once, in the order of strategies(), the way a clang-tidy module
// registers its checks. Adding one: a class here, its header and source, and a line in
// strategies.cpp.
#pragma once

#include "rewrite/cpp_state.h"

#include <memory>
#include <string>
#include <vector>

namespace gridlock::rewrite {

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual void run(CppState& state) = 0;
  // Its part of the summary line ("12 substituted"), from its tally in `plan`; "" for none.
  virtual std::string describe(const Plan& plan) const = 0;
};

// Every strategy, in the order the planner runs them (and the summary line lists them):
// Substitute, PerModelState, Require, Thread, Store, Supply, Collapse.
const std::vector<std::unique_ptr<Strategy>>& strategies();

}  // namespace gridlock::rewrite
